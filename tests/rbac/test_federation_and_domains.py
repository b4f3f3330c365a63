"""Write domains and materialized visibility, including prospective federation membership."""

from __future__ import annotations

import pytest

from helixsite.errors import ApplicationError
from memory.ingest import apply, conductor
from memory.ingest.decide import Decision, Op
from memory.models import Memory
from memory.services.add import memory_add
from rbac.models import MemoryProvenance, Role, Workspace
from rbac.policy import SYSTEM, write_domain_resolve
from rbac.services import federation_attach, federation_create, federation_detach
from tests.factories import grant, make_memory, make_principal, make_workspace

pytestmark = pytest.mark.django_db


def visible(principal) -> set[str]:
    return set(Memory.objects.visible_to(principal.user).values_list("content", flat=True))


@pytest.fixture
def teams():
    a, b = make_workspace("team-a"), make_workspace("team-b")
    ann, bob = make_principal("ann"), make_principal("bob")
    grant(ann, a, Role.WORKER)
    grant(bob, b, Role.WORKER)
    return a, b, ann, bob


def test_private_workspaces_get_salted_domains_and_default_keeps_the_legacy_one(teams):
    a, _, ann, _ = teams
    grant(ann, Workspace.objects.get(slug="default"), Role.WORKER)

    assert write_domain_resolve(actor=ann.user, group_id="team-a").scope == f"rbac:group:{a.id}"
    assert write_domain_resolve(actor=ann.user, group_id=str(a.id)).scope == f"rbac:group:{a.id}"
    assert write_domain_resolve(actor=ann.user, group_id="default").scope == "default"


def test_private_writes_are_visible_only_to_their_workspace(teams):
    _, _, ann, bob = teams
    make_memory(author=ann, domain=write_domain_resolve(actor=ann.user, group_id="team-a"), content="A's plan")
    make_memory(author=bob, domain=write_domain_resolve(actor=bob.user, group_id="team-b"), content="B's plan")

    assert visible(ann) == {"A's plan"}
    assert visible(bob) == {"B's plan"}
    assert visible(make_principal("nobody")) == set()


def test_federation_shares_writes_while_attached_and_detaching_is_prospective(teams):
    a, b, ann, bob = teams
    alliance = federation_create(actor=SYSTEM, name="alliance")
    federation_attach(actor=SYSTEM, federation=alliance, workspace=a)
    federation_attach(actor=SYSTEM, federation=alliance, workspace=b)

    shared_domain = write_domain_resolve(actor=ann.user, group_id="team-a")
    assert shared_domain.scope == f"rbac:dedup:{alliance.id}"
    assert write_domain_resolve(actor=bob.user, group_id="team-b").scope == shared_domain.scope
    shared = make_memory(author=ann, domain=shared_domain, content="written while federated")
    assert visible(bob) == {"written while federated"}
    assert MemoryProvenance.objects.get(memory=shared).federation == alliance

    federation_detach(actor=SYSTEM, federation=alliance, workspace=b)

    assert visible(bob) == {"written while federated"}, "old memories keep their visibility"
    bob_domain = write_domain_resolve(actor=bob.user, group_id="team-b")
    assert bob_domain.scope == f"rbac:group:{b.id}"
    make_memory(author=bob, domain=bob_domain, content="B after leaving")
    make_memory(author=ann, domain=write_domain_resolve(actor=ann.user, group_id="team-a"), content="A after B left")
    assert visible(ann) == {"written while federated", "A after B left"}
    assert visible(bob) == {"written while federated", "B after leaving"}


def test_an_omitted_group_id_resolves_only_when_exactly_one_workspace_is_writable(teams):
    a, b, ann, _ = teams
    assert write_domain_resolve(actor=ann.user, group_id=None).workspace == a

    grant(ann, b, Role.VIEWER)
    assert write_domain_resolve(actor=ann.user, group_id=None).workspace == a, "read-only workspaces do not count"

    grant(ann, b, Role.WORKER)
    with pytest.raises(ApplicationError) as ambiguous:
        write_domain_resolve(actor=ann.user, group_id=None)
    assert (ambiguous.value.code, ambiguous.value.status, ambiguous.value.field) == (
        "ambiguous_workspace",
        400,
        "group_id",
    )
    assert ambiguous.value.details["workspaces"] == ["team-a", "team-b"]


def test_an_actor_with_no_writable_workspace_fails_closed(teams):
    viewer = make_principal("viewer")
    grant(viewer, teams[0], Role.VIEWER)

    with pytest.raises(ApplicationError) as refused:
        write_domain_resolve(actor=viewer.user, group_id=None)
    assert refused.value.code == "forbidden"


def test_reserved_workspaces_cannot_be_federated(teams):
    alliance = federation_create(actor=SYSTEM, name="alliance")

    for slug in ("default", "onboarding"):
        with pytest.raises(ApplicationError) as refused:
            federation_attach(actor=SYSTEM, federation=alliance, workspace=Workspace.objects.get(slug=slug))
        assert refused.value.code == "reserved_workspace"


def test_a_workspace_is_in_one_federation_at_a_time(teams):
    a = teams[0]
    first, second = federation_create(actor=SYSTEM, name="first"), federation_create(actor=SYSTEM, name="second")
    federation_attach(actor=SYSTEM, federation=first, workspace=a)

    with pytest.raises(ApplicationError) as refused:
        federation_attach(actor=SYSTEM, federation=second, workspace=a)
    assert refused.value.code == "already_federated"


def test_an_update_whose_target_changed_meanwhile_is_stored_anew_with_its_provenance(teams, monkeypatch):
    """The fallback to ADD (the target superseded or forgotten between its reading and its lock)
    records the federation a new memory was written through, as every other ADD does."""
    a, b, ann, bob = teams
    alliance = federation_create(actor=SYSTEM, name="alliance")
    federation_attach(actor=SYSTEM, federation=alliance, workspace=a)
    federation_attach(actor=SYSTEM, federation=alliance, workspace=b)
    memory_add(actor=ann.user, user_id="maya", message="Maya lives in Lisbon.", group_id="team-a")

    def updating(*, atoms, candidates, **_):
        return [Decision(Op.UPDATE, found[0], 0.9, "an update for the test", "rules") for found in candidates]

    monkeypatch.setattr(conductor, "decide", updating)
    monkeypatch.setattr(apply, "_lock_current", lambda memory_id: None)  # changed meanwhile
    answer = memory_add(
        actor=ann.user, user_id="maya", message="Maya lives in Lisbon, near the river.", group_id="team-a"
    )

    new = Memory.objects.get(pk=answer["memory_ids"][0])
    assert new.content == "Maya lives in Lisbon, near the river."  # stored anew, the first left as it was
    assert Memory.objects.filter(content="Maya lives in Lisbon.").exists()
    assert MemoryProvenance.objects.get(memory=new).federation == alliance
