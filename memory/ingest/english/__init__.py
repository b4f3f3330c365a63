"""Deterministic reading of English statements, used by the rule-based ingest stages (extract,
decide, bulk import, corrections) and by the answers. It is what the server uses when no LLM
is configured, and what fills in facets an LLM did not give. Rules are plain and predictable
on purpose: the same message always yields the same atoms, so a repeated call deduplicates
exactly.

Its output is part of every memory's ``content_key`` (the dedup fingerprint stored on each
row: the type ``memory_types`` reads and the text ``person`` attributes) and of its facets.
A rule change is therefore a data change: statements said again after it may no longer match
the memories they made before. ``tests/memory/ingest/test_english_fingerprint.py`` pins the
output on a fixed corpus so that no change moves it by accident.

The sections, each a module:

- ``sentences``: where statements begin and end, clauses, chit-chat and questions;
- ``person``: first-person attribution ("I moved" → "alice moved");
- ``memory_types``: health, fact, preference, goal, decision, skill, opinion, event or procedure;
- ``entities``: URLs, addresses, paths, identifiers, quoted terms and names;
- ``attributes``: single- and many-valued attributes and whose they are;
- ``negation``: denials, and what a statement says without them;
- ``changes``: change cues, and what a statement ends, reschedules, retracts or adds; the
  kinds of things, the amounts and the stances the decision stage compares;
- ``values``: a thing's value as a statement says it ("the build now takes four minutes"), and
  which later statement updates which;
- ``topics``: the words that carry a statement's meaning and name its topic;
- ``scores``: importance and certainty.

The long word lists are data, in ``lists/`` (read by ``wordlists``).
"""
