from django.urls import include, path

from rbac.login import refused_login_answers_429
from stewardship import views
from stewardship.pages import agents, audit, memories, observatory, reviews, runs, sessions

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
    ],
    "steward",
)

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("steward/", include(room)),
]
