from django.db import models


class RateBudget(models.Model):
    """One budget, a token bucket: ``tokens`` left at ``updated_at``, refilled at its rate (an API
    token's calls; a username's or an address's failed logins). Spent by one atomic statement
    per call (``helixsite.agents.throttle``), so every web worker and both transports draw on
    the same exact budget."""

    key = models.CharField(primary_key=True, max_length=100)
    tokens = models.FloatField()
    updated_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.key}: {self.tokens:.1f} left at {self.updated_at:%Y-%m-%d %H:%M:%S}"
