"""Two clients importing conversations into one workspace at once, over HTTP: each call six
messages naming people of the same small crowd in random orders, a new crowd each round, so each
call makes entities the other's messages name. The messages of a call are written in one
transaction, so the two wait on each other's new entities, and PostgreSQL ends one of them in a
deadlock now and then: the server writes that message again (its log says "gave way in a
deadlock") and every call is answered 200. Before that, a few calls in a hundred answered 500.

``BENCH_RACE_ROUNDS`` (60) calls per client; what it measures is the answers by status, not a time.
"""

from __future__ import annotations

import collections
import os
import random
import threading
import time

from django.db import connection

from bench.http_search import _server
from bench.setup import prepared
from helixsite.client import Helixsite, HelixsiteError
from memory.models import Entity, Memory
from rbac.models import Workspace
from rbac.services import token_issue

CLIENTS = 2
ROUNDS = int(os.environ.get("BENCH_RACE_ROUNDS", "60"))
MESSAGES = 6
FIRST = ("Priya", "Tomasz", "Ana", "Kofi", "Ines", "Marek", "Yuki", "Omar")
SURNAMES = ("Raman", "Kowal", "Silva", "Mensah", "Duarte", "Novak", "Tanaka", "Haddad", "Lindqvist", "Okafor")
ENDINGS = ("", "son", "ski", "ova", "ez", "ini")
VERBS = ("reviewed the plan with", "met", "called", "sent the report to", "had lunch with", "paired with")


def run() -> None:
    actor = prepared(workspace="bench-race", principal="bench-race")
    scope = f"rbac:group:{Workspace.objects.get(slug='bench-race').id}"
    Memory.objects.filter(rbac_scope=scope).delete()  # each run makes its crowds' entities anew
    Entity.objects.filter(rbac_scope=scope).delete()
    token = token_issue(user=actor, name="bench race").raw
    connection.close()
    answers: collections.Counter[str] = collections.Counter()
    lock = threading.Lock()

    def client(number: int, base_url: str) -> None:
        rnd = random.Random(number)
        with Helixsite(base_url, token=token, actor_id=actor.username, timeout=120) as helix:
            for at in range(ROUNDS):
                crowd = [
                    f"{first} {SURNAMES[at % len(SURNAMES)]}{ENDINGS[at // len(SURNAMES) % len(ENDINGS)]}"
                    for first in FIRST
                ]
                messages = []
                for n in range(MESSAGES):
                    one, other = rnd.sample(crowd, 2)
                    said = f"Today {one} {rnd.choice(VERBS)} {other} about item {number}-{at}-{n}."
                    messages.append({"role": "user", "content": said})
                try:
                    helix.add_conversation(
                        user_id=f"race-{number}", messages=messages, group_id="bench-race", extract=False
                    )
                    answer = "200"
                except HelixsiteError as exc:
                    answer = f"{exc.status} {exc.code}"
                with lock:
                    answers[answer] += 1

    with _server() as base_url:
        started = time.perf_counter()
        threads = [threading.Thread(target=client, args=(n, base_url)) for n in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - started
    calls = sum(answers.values())
    print(f"{calls} add_conversation calls of {MESSAGES} messages, {CLIENTS} clients, one workspace, {seconds:.1f} s")
    for answer, count in answers.most_common():
        print(f"  {answer}: {count}")
