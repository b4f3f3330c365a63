from django.contrib.postgres.fields import ArrayField
from django.db import models


class RateBudget(models.Model):
    """One budget, a token bucket: ``tokens`` left at ``updated_at``, refilled at its rate (an API
    token's calls; a username's or an address's failed logins). Spent by one atomic statement
    per call (``helixsite.db.budgets``), so every web worker and both transports draw on
    the same exact budget."""

    key = models.CharField(primary_key=True, max_length=100)
    tokens = models.FloatField()
    updated_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.key}: {self.tokens:.1f} left at {self.updated_at:%Y-%m-%d %H:%M:%S}"


class CallMinute(models.Model):
    """Calls of one tool in one minute, both transports: how many, how many failed, and a
    histogram of their durations (``helixsite.agents.usage``), from which the control room reads
    counts and p50/p95 without keeping a row per call."""

    minute = models.DateTimeField()
    tool = models.CharField(max_length=64)
    calls = models.PositiveIntegerField()
    errors = models.PositiveIntegerField()
    buckets = ArrayField(models.PositiveIntegerField(), help_text="calls per duration bucket (usage.BOUNDS_MS)")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["minute", "tool"], name="call_minute_unique")]

    def __str__(self) -> str:
        return f"{self.tool} at {self.minute:%Y-%m-%d %H:%M}: {self.calls} calls"


class ReadPosition(models.Model):
    """How far a read replica must have replayed the primary's write-ahead log before it may
    answer a caller (``helixsite.db.replicas``): ``user:<id>`` after that caller's last write,
    ``access`` after the last change of who may read what. A byte position (``pg_lsn - '0/0'``)."""

    key = models.CharField(primary_key=True, max_length=64)
    lsn = models.BigIntegerField()

    def __str__(self) -> str:
        return f"{self.key}: {self.lsn}"
