"""Django admin, for inspection: every registered model's pages render, and no secret shows."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.urls import reverse

from rbac.models import ApiToken
from tests.factories import make_agent_with_token, make_principal

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    root = make_principal("root", admin=True)
    root.user.set_password("pw-for-tests")
    root.user.save()
    client.force_login(root.user)
    return client


def test_every_registered_model_lists_for_a_global_admin(admin_client, add):
    add("I live in Lisbon. I have two cats named Miso and Tofu, and I work at Santa Maria hospital as a nurse.")
    for model in admin.site._registry:
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        assert admin_client.get(url).status_code == 200, url


def test_token_digests_and_raw_tokens_never_show(admin_client):
    _, issued = make_agent_with_token("scout")
    token = ApiToken.objects.get()

    pages = admin_client.get(reverse("admin:rbac_apitoken_changelist")).content.decode()
    pages += admin_client.get(reverse("admin:rbac_apitoken_change", args=[token.pk])).content.decode()

    assert token.digest not in pages and issued.raw not in pages
    assert token.prefix in pages


def test_people_without_the_global_role_cannot_open_admin(client):
    worker = make_principal("worker")
    client.force_login(worker.user)

    assert client.get(reverse("admin:index")).status_code == 302
