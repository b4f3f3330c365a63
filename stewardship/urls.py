from django.urls import include, path

from rbac.login import refused_login_answers_429
from stewardship import views
from stewardship.pages import (
    access_check,
    agents,
    atlas,
    audit,
    federations,
    memberships,
    memories,
    observatory,
    people,
    reviews,
    runs,
    sessions,
    tokens,
    workspaces,
)

room = (
    [
        path("", observatory.observatory, name="observatory"),
        path("login/", refused_login_answers_429(sessions.LoginView.as_view()), name="login"),
        path("logout/", sessions.LogoutView.as_view(), name="logout"),
        path("audit/", audit.audit, name="audit"),
        path("memories/", memories.memories, name="memories"),
        path("memories/<uuid:memory_id>/", memories.memory_page, name="memory"),
        path("memories/<uuid:memory_id>/correct/", memories.memory_correct, name="memory-correct"),
        path("runs/", runs.runs, name="runs"),
        path("runs/<uuid:run_id>/", runs.run_detail, name="run"),
        path("ledger/", runs.ledger, name="ledger"),
        path("reviews/", reviews.reviews, name="reviews"),
        path("agents/", agents.agents, name="agents"),
        path("reviews/<uuid:review_id>/settle/", reviews.review_settle, name="review-settle"),
        path("proposals/<uuid:proposal_id>/adopt/", reviews.proposal_adopt, name="proposal-adopt"),
        path("people/", people.people, name="people"),
        path("people/<str:username>/", people.principal, name="principal"),
        path("people/<str:username>/deactivate/", people.principal_deactivate, name="principal-deactivate"),
        path("people/<str:username>/reactivate/", people.principal_reactivate, name="principal-reactivate"),
        path("people/<str:username>/global-admin/", people.principal_global_admin, name="principal-global-admin"),
        path("people/<str:username>/tokens/", tokens.token_issue, name="token-issue"),
        path("people/<str:username>/tokens/<int:token_id>/revoke/", tokens.token_revoke, name="token-revoke"),
        path("people/<str:username>/roles/", memberships.role_grant, name="role-grant"),
        path("people/<str:username>/roles/<slug:workspace>/revoke/", memberships.role_revoke, name="role-revoke"),
        path("workspaces/", workspaces.workspaces, name="workspaces"),
        path("workspaces/<slug:slug>/", workspaces.workspace, name="workspace"),
        path("workspaces/<slug:slug>/members/", memberships.member_grant, name="member-grant"),
        path("workspaces/<slug:slug>/members/<str:username>/revoke/", memberships.member_revoke, name="member-revoke"),
        path("workspaces/<slug:slug>/delete/", workspaces.workspace_delete, name="workspace-delete"),
        path("federations/", federations.federations, name="federations"),
        path("federations/<slug:slug>/", federations.federation, name="federation"),
        path("federations/<slug:slug>/attach/", federations.federation_attach, name="federation-attach"),
        path(
            "federations/<slug:slug>/detach/<slug:workspace>/", federations.federation_detach, name="federation-detach"
        ),
        path("access/", access_check.access_check, name="access-check"),
        path("atlas/", atlas.atlas, name="atlas"),
        path("atlas/refresh/", atlas.atlas_refresh, name="atlas-refresh"),
    ],
    "steward",
)

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("steward/", include(room)),
]
