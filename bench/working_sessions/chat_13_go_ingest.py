"""A backend engineer at a payments startup building a Go service that moves payment events from Kafka
into ClickHouse, with an assistant over a quarter: the consumer, batching and retries, load tests whose
figures move, a schema change, an outage and its postmortem, a lead and reviewers who change, library
bumps, and life outside work in the margins."""

from __future__ import annotations

from bench.working_sessions.shape import Chat, Question, Session, a, u, w

S1 = Session(
    "2026-01-13T09:20:00Z",
    [
        u(
            w(
                r"""
                Morning. New quarter, new project, and I'd like a sparring partner for it. I'm a backend
                engineer at Kestrel Pay — we're a small acquiring startup in Amsterdam, card and iDEAL
                payments for web shops, about 40 people. My task for Q1 is a Go service called evingest
                that reads payment events off Kafka (topic payments.events.v1) and writes them into
                ClickHouse, so the analytics and risk people stop querying the production Postgres. Right
                now a Python cron job dumps Postgres into ClickHouse every 15 minutes and everyone hates
                it.

                ClickHouse is self-hosted, 24.3, two shards with two replicas each, on bare metal at
                Hetzner in Falkenstein. Kafka is Confluent Cloud. My lead is Joana Reis, she's the one who
                pitched the project and she'll sign off on the design.

                I've got a prototype I hacked together before Christmas. I'll paste it in a second.
                """
            ),
            key="s1-intro",
        ),
        a(
            w(
                r"""
                Good project to own — replacing a 15-minute batch dump with a streaming ingester is one of
                those changes people feel immediately. Paste the prototype and I'll go through it.

                While you do, here's what I'll be looking at, because these are where Kafka→ClickHouse
                ingesters usually go wrong:

                1. **When offsets are committed.** The offset should only move after ClickHouse has
                   acknowledged the rows. Commit earlier and a crash between commit and insert loses data
                   silently.
                2. **Insert size.** ClickHouse wants few, large inserts — thousands to hundreds of thousands
                   of rows at a time — not one insert per message. Every insert creates a part on disk, and
                   too many small parts end in the dreaded `Too many parts` error.
                3. **Duplicates.** With at-least-once delivery you *will* write some rows twice (after a
                   crash or a rebalance). The table design has to tolerate that, or the consumer has to
                   deduplicate.
                4. **Money types.** Amounts must never pass through `float64`.
                5. **Back-pressure.** When ClickHouse is slow or down, the consumer should stop fetching
                   rather than buffer the world in memory.

                Two questions that shape the design: how many partitions does payments.events.v1 have, and
                what freshness do the consumers of the data actually need — seconds, a minute?
                """
            )
        ),
        u(
            "24 partitions. Freshness SLO is 30 seconds end to end, from the event being produced to it being "
            "queryable in ClickHouse.",
            key="s1-answers",
        ),
        u(
            w(
                r"""
                Here's the prototype, main.go, all of it:

                ```go
                package main

                import (
                    "context"
                    "encoding/json"
                    "log"
                    "os"

                    "github.com/ClickHouse/clickhouse-go/v2"
                    "github.com/twmb/franz-go/pkg/kgo"
                )

                type PaymentEvent struct {
                    EventID    string  `json:"event_id"`
                    MerchantID string  `json:"merchant_id"`
                    Type       string  `json:"type"`
                    Amount     float64 `json:"amount"`
                    Currency   string  `json:"currency"`
                    EventTime  string  `json:"event_time"`
                }

                func main() {
                    cl, err := kgo.NewClient(
                        kgo.SeedBrokers(os.Getenv("KAFKA_BROKERS")),
                        kgo.ConsumerGroup("evingest"),
                        kgo.ConsumeTopics("payments.events.v1"),
                    )
                    if err != nil {
                        log.Fatal(err)
                    }
                    conn, err := clickhouse.Open(&clickhouse.Options{Addr: []string{os.Getenv("CH_ADDR")}})
                    if err != nil {
                        log.Fatal(err)
                    }
                    ctx := context.Background()
                    for {
                        fetches := cl.PollFetches(ctx)
                        fetches.EachRecord(func(r *kgo.Record) {
                            var ev PaymentEvent
                            if err := json.Unmarshal(r.Value, &ev); err != nil {
                                log.Printf("bad record: %v", err)
                                return
                            }
                            err := conn.Exec(ctx, "INSERT INTO payment_events VALUES (?, ?, ?, ?, ?, ?)",
                                ev.EventID, ev.MerchantID, ev.Type, ev.Amount, ev.Currency, ev.EventTime)
                            if err != nil {
                                log.Printf("insert failed: %v", err)
                            }
                        })
                    }
                }
                ```

                It works on my laptop with a few hundred events. I know it's bad, that's why I'm here.
                """
            )
        ),
        a(
            w(
                r"""
                It's a fine prototype — it proves the plumbing — but it has three real problems, one of
                which loses data:

                **1. It's committing offsets before the insert.** franz-go's default with a consumer group
                is autocommit: every five seconds it commits whatever has been *polled*. Your loop polls,
                then inserts. If the process dies after the autocommit tick but before `conn.Exec` returns,
                those events are marked consumed and never reach ClickHouse. And on insert failure you log
                and move on, so a ClickHouse blip also drops rows. This is the one to fix first: disable
                autocommit and commit explicitly, only after a successful insert.

                **2. One insert per message.** At a few hundred events that's fine; at real volume every
                `Exec` creates a new part and ClickHouse will start refusing inserts. We'll batch: collect
                rows and send them with `PrepareBatch`, which uses the native protocol and columnar blocks.

                **3. `Amount float64`.** 0.1 + 0.2 problems in a payments table are the kind of thing that
                ends up in an audit finding. Parse into an integer of minor units or a decimal. I'll leave
                that for its own change so this one stays reviewable — but it goes on the list.

                Smaller things: the `PaymentEvent.EventTime` is a string and will be inserted as whatever
                format the producer sends; errors go to `log.Printf`; no graceful shutdown, so a deploy
                kills in-flight work.

                Before I rewrite it: what's your logging setup? Is there a house logger I should use?
                """
            ),
            key="s1-review",
        ),
        u(
            "No house logger yet. I'd like log/slog from the standard library, JSON handler. I don't want to "
            "pull in zap or zerolog for this, one less dependency to bump.",
            key="pref-slog",
        ),
        u(
            w(
                r"""
                Also two ground rules for the whole project, so I don't have to repeat them:

                - Always give me complete files, never diffs or "rest unchanged" fragments. I paste
                  straight into the editor and I've been burned by half-merged snippets.
                - Commit messages: Conventional Commits (feat:, fix:, chore: …), lowercase, subject under
                  72 characters, and the Linear ticket in the footer as `Refs: ING-<n>`. No emojis,
                  Joana rejects PRs with emoji commits.
                """
            ),
            key="si-files",
        ),
        a(
            w(
                r"""
                Both noted, for the rest of the project: complete files every time, and Conventional
                Commits with `Refs: ING-<n>` in the footer, no emojis.

                Here's the restructured service. I've split it into three files so each piece is testable:
                `main.go` wires things up, `consumer.go` owns the Kafka side, `sink.go` owns ClickHouse.
                Batching in this version is deliberately naive — one poll, one batch — we'll replace it
                with a proper batcher next.

                **go.mod**

                ```
                module github.com/kestrelpay/evingest

                go 1.22

                require (
                    github.com/ClickHouse/clickhouse-go/v2 v2.23.2
                    github.com/twmb/franz-go v1.16.1
                    github.com/prometheus/client_golang v1.19.0
                )
                ```

                **main.go**

                ```go
                package main

                import (
                    "context"
                    "log/slog"
                    "os"
                    "os/signal"
                    "syscall"
                )

                func main() {
                    logger := slog.New(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{Level: slog.LevelInfo}))
                    slog.SetDefault(logger)

                    ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
                    defer stop()

                    cfg, err := LoadConfig()
                    if err != nil {
                        logger.Error("config", "err", err)
                        os.Exit(1)
                    }

                    sink, err := NewSink(ctx, cfg.ClickHouse)
                    if err != nil {
                        logger.Error("clickhouse connect", "err", err)
                        os.Exit(1)
                    }
                    defer sink.Close()

                    c, err := NewConsumer(cfg.Kafka, sink, logger)
                    if err != nil {
                        logger.Error("kafka client", "err", err)
                        os.Exit(1)
                    }
                    defer c.Close()

                    if err := c.Run(ctx); err != nil && ctx.Err() == nil {
                        logger.Error("consumer stopped", "err", err)
                        os.Exit(1)
                    }
                    logger.Info("shutdown complete")
                }
                ```

                **consumer.go**

                ```go
                package main

                import (
                    "context"
                    "encoding/json"
                    "log/slog"

                    "github.com/twmb/franz-go/pkg/kgo"
                )

                type Consumer struct {
                    cl     *kgo.Client
                    sink   *Sink
                    logger *slog.Logger
                }

                func NewConsumer(cfg KafkaConfig, sink *Sink, logger *slog.Logger) (*Consumer, error) {
                    cl, err := kgo.NewClient(
                        kgo.SeedBrokers(cfg.Brokers...),
                        kgo.ConsumerGroup(cfg.Group),
                        kgo.ConsumeTopics(cfg.Topics...),
                        kgo.DisableAutoCommit(),
                        kgo.FetchMaxBytes(50<<20),
                    )
                    if err != nil {
                        return nil, err
                    }
                    return &Consumer{cl: cl, sink: sink, logger: logger}, nil
                }

                func (c *Consumer) Run(ctx context.Context) error {
                    for {
                        fetches := c.cl.PollFetches(ctx)
                        if ctx.Err() != nil {
                            return ctx.Err()
                        }
                        fetches.EachError(func(topic string, p int32, err error) {
                            c.logger.Error("fetch error", "topic", topic, "partition", p, "err", err)
                        })

                        rows := make([]PaymentEvent, 0, fetches.NumRecords())
                        fetches.EachRecord(func(r *kgo.Record) {
                            var ev PaymentEvent
                            if err := json.Unmarshal(r.Value, &ev); err != nil {
                                c.logger.Warn("undecodable record", "topic", r.Topic, "partition", r.Partition,
                                    "offset", r.Offset, "err", err)
                                return
                            }
                            rows = append(rows, ev)
                        })

                        if len(rows) > 0 {
                            if err := c.sink.Insert(ctx, rows); err != nil {
                                return err // no commit: the batch is redelivered after restart
                            }
                        }
                        if err := c.cl.CommitUncommittedOffsets(ctx); err != nil {
                            c.logger.Error("commit failed", "err", err)
                        }
                    }
                }

                func (c *Consumer) Close() { c.cl.Close() }
                ```

                **sink.go**

                ```go
                package main

                import (
                    "context"
                    "fmt"

                    "github.com/ClickHouse/clickhouse-go/v2"
                    "github.com/ClickHouse/clickhouse-go/v2/lib/driver"
                )

                type Sink struct {
                    conn  driver.Conn
                    table string
                }

                func NewSink(ctx context.Context, cfg ClickHouseConfig) (*Sink, error) {
                    conn, err := clickhouse.Open(&clickhouse.Options{
                        Addr: cfg.Addrs,
                        Auth: clickhouse.Auth{Database: cfg.Database, Username: cfg.User, Password: cfg.Password},
                    })
                    if err != nil {
                        return nil, err
                    }
                    if err := conn.Ping(ctx); err != nil {
                        return nil, fmt.Errorf("ping: %w", err)
                    }
                    return &Sink{conn: conn, table: cfg.Table}, nil
                }

                func (s *Sink) Insert(ctx context.Context, rows []PaymentEvent) error {
                    batch, err := s.conn.PrepareBatch(ctx, "INSERT INTO "+s.table)
                    if err != nil {
                        return err
                    }
                    for _, ev := range rows {
                        if err := batch.Append(ev.EventID, ev.MerchantID, ev.Type, ev.Amount, ev.Currency, ev.EventTime); err != nil {
                            return err
                        }
                    }
                    return batch.Send()
                }

                func (s *Sink) Close() error { return s.conn.Close() }
                ```

                Config loading (`LoadConfig`) reads environment variables; I'll write it out once we know
                the full set of knobs. Commit message for this one:

                ```
                fix: commit kafka offsets only after clickhouse insert

                Disable franz-go autocommit and commit explicitly once the batch
                is acknowledged, so a crash between poll and insert can no longer
                drop events. Split main.go into consumer and sink, log via slog.

                Refs: ING-12
                ```
                """
            ),
            key="s1-gomod",
        ),
        u(
            "This is already much nicer. What does the ClickHouse table look like in your head? Right now "
            "there's a MergeTree someone made by hand with ORDER BY event_time and that's it."
        ),
        a(
            w(
                r"""
                ORDER BY `event_time` alone is the one design I'd change straight away, because nearly
                every query your analytics and risk people write will filter by merchant first ("this
                merchant's refunds last week"). The sorting key should lead with the column you filter on
                most, then time, then something unique so identical rows sort together (which matters for
                deduplication later).

                ```sql
                CREATE TABLE payments.payment_events ON CLUSTER kestrel
                (
                    event_id      String,
                    merchant_id   String,
                    event_type    LowCardinality(String),
                    amount_minor  Int64,
                    currency      LowCardinality(FixedString(3)),
                    event_time    DateTime64(3, 'UTC'),
                    ingested_at   DateTime64(3, 'UTC') DEFAULT now64(3),
                    kafka_partition UInt16,
                    kafka_offset  UInt64
                )
                ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/payment_events', '{replica}')
                PARTITION BY toYYYYMM(event_time)
                ORDER BY (merchant_id, event_time, event_id);

                CREATE TABLE payments.payment_events_all ON CLUSTER kestrel
                AS payments.payment_events
                ENGINE = Distributed(kestrel, payments, payment_events, cityHash64(merchant_id));
                ```

                Notes on the choices:

                - **`amount_minor Int64`** — cents as an integer. This is where the float fix will land.
                - **`DateTime64(3, 'UTC')`** — explicit timezone so nobody's server setting reinterprets it.
                - **`kafka_partition` / `kafka_offset`** — cheap, and invaluable when you need to prove
                  where a row came from, or find gaps.
                - **Monthly partitions.** Daily would give you too many partitions at this volume; monthly
                  keeps `DROP PARTITION` retention simple.
                - **Distributed table sharded by merchant** — a merchant's rows stay on one shard, so
                  per-merchant queries don't fan out.

                The ingester would insert into `payment_events_all` to start with; later we may insert
                directly into the local tables per shard, but let's not optimise that before measuring.
                """
            ),
            key="s1-ddl",
        ),
        u(
            "Makes sense. Joana will like the merchant-first key, she's been complaining about the risk "
            "queries for months. I'll run the DDL on staging this afternoon."
        ),
        a(
            w(
                r"""
                Sounds good. When you run it on staging, check two things:

                1. `SELECT * FROM system.macros` on each node — the `{shard}` and `{replica}` macros have to
                   be defined, or the `ReplicatedMergeTree` path collides and the second replica refuses to
                   create the table.
                2. `SELECT * FROM system.replicas WHERE table = 'payment_events'` afterwards —
                   `is_readonly` should be 0 and `active_replicas` should be 2 on both shards.

                Next session we'll write the real batcher (size *and* time based flushes, so a quiet night
                doesn't leave rows sitting in memory past your 30-second freshness target) and the config
                loader.
                """
            )
        ),
        u(
            "Before I go: the Dockerfile. Our other Go services build on golang:1.22 and copy the binary into "
            "alpine. Fine to do the same here?"
        ),
        a(
            w(
                r"""
                That works, but for a service like this I'd use a distroless base instead of alpine. We
                build with `CGO_ENABLED=0`, so the binary is fully static and needs nothing from the
                image — no libc, no shell, no package manager. Distroless `static` gives you CA
                certificates (needed for Confluent Cloud's TLS), timezone data and a non-root user, and
                nothing else to patch.

                **Dockerfile**

                ```dockerfile
                # syntax=docker/dockerfile:1.6
                FROM golang:1.22 AS build
                WORKDIR /src
                COPY go.mod go.sum ./
                RUN --mount=type=cache,target=/go/pkg/mod go mod download
                COPY . .
                ARG VERSION=dev
                RUN --mount=type=cache,target=/go/pkg/mod \
                    --mount=type=cache,target=/root/.cache/go-build \
                    CGO_ENABLED=0 GOOS=linux go build -trimpath \
                    -ldflags "-s -w -X main.version=${VERSION}" -o /out/evingest .

                FROM gcr.io/distroless/static-debian12:nonroot
                COPY --from=build /out/evingest /evingest
                USER nonroot:nonroot
                EXPOSE 9102
                ENTRYPOINT ["/evingest"]
                ```

                Notes:

                - The two cache mounts make rebuilds in CI fast when only code changed; `go mod download`
                  in its own layer means dependencies are fetched only when `go.sum` changes.
                - `-X main.version` needs a `var version = "dev"` in `main.go`; log it at startup, it
                  saves a lot of "which build is running" questions.
                - The trade-off of distroless: no shell in the container. When you need to poke around,
                  `kubectl debug -it <pod> --image=busybox --target=evingest` attaches a debug container
                  that shares the process namespace.
                """
            )
        ),
        u("No shell is fine, we use kubectl debug for everything anyway. Adding the version var."),
        a("Good. Run the DDL, check the macros and replicas, and we'll pick up with the batcher next time."),
        u("Will do. Off to a 1:1 with Joana now, thanks."),
    ],
)

S2 = Session(
    "2026-01-20T14:05:00Z",
    [
        u(
            w(
                r"""
                Back. DDL went in on staging without drama, macros were fine, both shards show two active
                replicas. The new prototype has been running against staging for two days and Keiko
                (analytics) already found it and started querying payment_events_all, which is a good
                sign.

                Before we get into the batcher, one more rule. Half the team is in Lisbon and half in
                Amsterdam, plus Confluent and Hetzner log in UTC, and we keep confusing each other. So
                whenever you write a time for me — in a plan, a log excerpt, a runbook, anything — write it
                in UTC, 24-hour clock, with the date as YYYY-MM-DD. Never "tomorrow at 9".
                """
            ),
            key="si-utc",
        ),
        a(
            w(
                r"""
                Understood — times in UTC, 24-hour, dates as YYYY-MM-DD, from here on.

                Now the batcher. The current loop inserts whatever one `PollFetches` returns, which at low
                traffic is a handful of rows (tiny parts) and at high traffic is bounded by the fetch size
                rather than anything we chose. What we want:

                - flush when the buffer reaches **MaxRows**, *or*
                - flush when the oldest row in the buffer has waited **MaxWait**, *or*
                - flush on shutdown;
                - commit offsets only for records that are in a flushed batch.

                Starting values: **MaxRows = 5,000** and **MaxWait = 1s**. With 24 partitions and your
                current traffic that gives inserts every second or so, well under the 30-second freshness
                target, and far fewer parts than one-insert-per-poll.

                **batcher.go**

                ```go
                package main

                import (
                    "context"
                    "time"

                    "github.com/twmb/franz-go/pkg/kgo"
                )

                type BatchConfig struct {
                    MaxRows int
                    MaxWait time.Duration
                }

                // Batcher accumulates decoded rows together with the records they came from,
                // so offsets can be committed for exactly what was flushed.
                type Batcher struct {
                    cfg     BatchConfig
                    rows    []PaymentEvent
                    records []*kgo.Record
                    oldest  time.Time
                }

                func NewBatcher(cfg BatchConfig) *Batcher {
                    return &Batcher{
                        cfg:     cfg,
                        rows:    make([]PaymentEvent, 0, cfg.MaxRows),
                        records: make([]*kgo.Record, 0, cfg.MaxRows),
                    }
                }

                func (b *Batcher) Add(ev PaymentEvent, r *kgo.Record, now time.Time) {
                    if len(b.rows) == 0 {
                        b.oldest = now
                    }
                    b.rows = append(b.rows, ev)
                    b.records = append(b.records, r)
                }

                // shouldFlush reports whether the buffer is full or its oldest row has waited long enough.
                func (b *Batcher) shouldFlush(now time.Time) bool {
                    if len(b.rows) == 0 {
                        return false
                    }
                    if len(b.rows) >= b.cfg.MaxRows {
                        return true
                    }
                    return now.Sub(b.oldest) >= b.cfg.MaxWait
                }

                func (b *Batcher) Len() int { return len(b.rows) }

                // Flush hands the buffered rows to insert and, only if it succeeds, returns the
                // records to commit. On failure the buffer is kept so the caller can retry.
                func (b *Batcher) Flush(ctx context.Context, insert func(context.Context, []PaymentEvent) error) ([]*kgo.Record, error) {
                    if len(b.rows) == 0 {
                        return nil, nil
                    }
                    if err := insert(ctx, b.rows); err != nil {
                        return nil, err
                    }
                    done := b.records
                    b.rows = make([]PaymentEvent, 0, b.cfg.MaxRows)
                    b.records = make([]*kgo.Record, 0, b.cfg.MaxRows)
                    return done, nil
                }
                ```

                **consumer.go** (the whole file, with the batcher wired in)

                ```go
                package main

                import (
                    "context"
                    "encoding/json"
                    "log/slog"
                    "time"

                    "github.com/twmb/franz-go/pkg/kgo"
                )

                type Consumer struct {
                    cl      *kgo.Client
                    sink    *Sink
                    batcher *Batcher
                    logger  *slog.Logger
                }

                func NewConsumer(cfg KafkaConfig, bc BatchConfig, sink *Sink, logger *slog.Logger) (*Consumer, error) {
                    cl, err := kgo.NewClient(
                        kgo.SeedBrokers(cfg.Brokers...),
                        kgo.ConsumerGroup(cfg.Group),
                        kgo.ConsumeTopics(cfg.Topics...),
                        kgo.DisableAutoCommit(),
                        kgo.FetchMaxBytes(50<<20),
                        kgo.FetchMaxWait(250*time.Millisecond),
                    )
                    if err != nil {
                        return nil, err
                    }
                    return &Consumer{cl: cl, sink: sink, batcher: NewBatcher(bc), logger: logger}, nil
                }

                func (c *Consumer) Run(ctx context.Context) error {
                    for {
                        pollCtx, cancel := context.WithTimeout(ctx, 250*time.Millisecond)
                        fetches := c.cl.PollRecords(pollCtx, 10_000)
                        cancel()
                        if ctx.Err() != nil {
                            return c.flush(context.Background()) // final flush on shutdown
                        }
                        fetches.EachError(func(topic string, p int32, err error) {
                            if err == context.DeadlineExceeded {
                                return
                            }
                            c.logger.Error("fetch error", "topic", topic, "partition", p, "err", err)
                        })
                        now := time.Now()
                        fetches.EachRecord(func(r *kgo.Record) {
                            var ev PaymentEvent
                            if err := json.Unmarshal(r.Value, &ev); err != nil {
                                c.logger.Warn("undecodable record", "topic", r.Topic, "partition", r.Partition,
                                    "offset", r.Offset, "err", err)
                                return
                            }
                            c.batcher.Add(ev, r, now)
                        })
                        if c.batcher.shouldFlush(time.Now()) {
                            if err := c.flush(ctx); err != nil {
                                return err
                            }
                        }
                    }
                }

                func (c *Consumer) flush(ctx context.Context) error {
                    n := c.batcher.Len()
                    start := time.Now()
                    done, err := c.batcher.Flush(ctx, c.sink.Insert)
                    if err != nil {
                        return err
                    }
                    if len(done) == 0 {
                        return nil
                    }
                    if err := c.cl.CommitRecords(ctx, done...); err != nil {
                        c.logger.Error("commit failed", "err", err)
                    }
                    c.logger.Info("flushed", "rows", n, "took_ms", time.Since(start).Milliseconds())
                    return nil
                }

                func (c *Consumer) Close() { c.cl.Close() }
                ```

                One subtlety: an undecodable record is *skipped but never committed* in this version,
                because it's never added to the batcher. `CommitRecords` commits the highest offset per
                partition, so a later good record moves past it anyway — but if the bad record is the last
                one on a quiet partition, it'll be re-read after a restart. Harmless, just noisy. We'll
                route those to a dead-letter topic when we do retries.
                """
            ),
            key="s2-batcher",
        ),
        u(
            "What happens if ClickHouse is slow? Right now Run returns on the first insert error, which "
            "kills the pod. Shouldn't it wait instead of fetching more?"
        ),
        a(
            w(
                r"""
                Yes — two separate behaviours to get right:

                **Slow, not failing.** While `Flush` is running, the loop isn't polling, so franz-go's
                internal buffer fills up to its limits and then stops fetching. That's natural
                back-pressure, as long as the buffer limits are sane. Add
                `kgo.MaxConcurrentFetches(4)` and keep `FetchMaxBytes` at 50 MB: worst case you hold a few
                hundred MB, not gigabytes.

                **Failing.** Exiting on the first error is actually defensible for now: nothing was
                committed, Kubernetes restarts the pod, the group rebalances, and the same records are
                re-read. It's crude but it's *correct*. The cost is that every restart triggers a
                rebalance for the whole group. The proper version is a retry loop with backoff around the
                insert, and a dead-letter path for rows ClickHouse rejects as invalid (as opposed to
                ClickHouse being unavailable). I'd rather do that as its own change once the batcher is
                merged — it keeps the PR small enough to review properly.

                If you want to pause explicitly rather than rely on buffers filling, franz-go has
                `PauseFetchTopics` / `ResumeFetchTopics`. I'd keep that in the back pocket for the
                retry work: pause while retrying, resume when an insert succeeds.
                """
            )
        ),
        u(
            "Fine, retries later. I need the config loader and some metrics next. We run Prometheus with the "
            "usual pod annotations."
        ),
        a(
            w(
                r"""
                Here are both, complete. Every knob is an environment variable with a default, durations
                parsed with `time.ParseDuration` so they read as `1s`, `250ms` in the deployment YAML.

                **config.go**

                ```go
                package main

                import (
                    "fmt"
                    "os"
                    "strconv"
                    "strings"
                    "time"
                )

                type KafkaConfig struct {
                    Brokers []string
                    Group   string
                    Topics  []string
                    User    string
                    Pass    string
                }

                type ClickHouseConfig struct {
                    Addrs    []string
                    Database string
                    Table    string
                    User     string
                    Password string
                }

                type Config struct {
                    Kafka       KafkaConfig
                    ClickHouse  ClickHouseConfig
                    Batch       BatchConfig
                    MetricsAddr string
                }

                func LoadConfig() (Config, error) {
                    maxRows, err := strconv.Atoi(env("INGEST_MAX_ROWS", "5000"))
                    if err != nil {
                        return Config{}, fmt.Errorf("INGEST_MAX_ROWS: %w", err)
                    }
                    maxWait, err := time.ParseDuration(env("INGEST_MAX_WAIT", "1s"))
                    if err != nil {
                        return Config{}, fmt.Errorf("INGEST_MAX_WAIT: %w", err)
                    }
                    return Config{
                        Kafka: KafkaConfig{
                            Brokers: strings.Split(env("KAFKA_BROKERS", "localhost:9092"), ","),
                            Group:   env("KAFKA_GROUP", "evingest-clickhouse"),
                            Topics:  strings.Split(env("KAFKA_TOPICS", "payments.events.v1"), ","),
                            User:    os.Getenv("KAFKA_USER"),
                            Pass:    os.Getenv("KAFKA_PASS"),
                        },
                        ClickHouse: ClickHouseConfig{
                            Addrs:    strings.Split(env("CH_ADDRS", "localhost:9000"), ","),
                            Database: env("CH_DATABASE", "payments"),
                            Table:    env("CH_TABLE", "payment_events_all"),
                            User:     env("CH_USER", "default"),
                            Password: os.Getenv("CH_PASSWORD"),
                        },
                        Batch:       BatchConfig{MaxRows: maxRows, MaxWait: maxWait},
                        MetricsAddr: env("METRICS_ADDR", ":9102"),
                    }, nil
                }

                func env(key, def string) string {
                    if v, ok := os.LookupEnv(key); ok && v != "" {
                        return v
                    }
                    return def
                }
                ```

                **metrics.go**

                ```go
                package main

                import (
                    "net/http"

                    "github.com/prometheus/client_golang/prometheus"
                    "github.com/prometheus/client_golang/prometheus/promauto"
                    "github.com/prometheus/client_golang/prometheus/promhttp"
                )

                var (
                    rowsInserted = promauto.NewCounter(prometheus.CounterOpts{
                        Name: "evingest_rows_inserted_total",
                        Help: "Rows acknowledged by ClickHouse.",
                    })
                    insertErrors = promauto.NewCounter(prometheus.CounterOpts{
                        Name: "evingest_insert_errors_total",
                        Help: "Failed ClickHouse inserts.",
                    })
                    batchRows = promauto.NewHistogram(prometheus.HistogramOpts{
                        Name:    "evingest_batch_rows",
                        Help:    "Rows per flushed batch.",
                        Buckets: prometheus.ExponentialBuckets(100, 2, 12),
                    })
                    flushSeconds = promauto.NewHistogram(prometheus.HistogramOpts{
                        Name:    "evingest_flush_duration_seconds",
                        Help:    "Time to insert one batch.",
                        Buckets: prometheus.ExponentialBuckets(0.005, 2, 14),
                    })
                    endToEndSeconds = promauto.NewHistogram(prometheus.HistogramOpts{
                        Name:    "evingest_end_to_end_seconds",
                        Help:    "Kafka record timestamp to ClickHouse ack.",
                        Buckets: prometheus.ExponentialBuckets(0.05, 2, 12),
                    })
                )

                func serveMetrics(addr string) {
                    mux := http.NewServeMux()
                    mux.Handle("/metrics", promhttp.Handler())
                    mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
                    go func() { _ = http.ListenAndServe(addr, mux) }()
                }
                ```

                Pod annotations to match:

                ```yaml
                metadata:
                  annotations:
                    prometheus.io/scrape: "true"
                    prometheus.io/port: "9102"
                    prometheus.io/path: "/metrics"
                ```

                In `flush`, after a successful insert: `rowsInserted.Add(float64(n))`,
                `batchRows.Observe(float64(n))`, `flushSeconds.Observe(time.Since(start).Seconds())`, and
                for end-to-end, observe `time.Since(r.Timestamp)` for the *oldest* record in the batch —
                that's the number your freshness SLO is really about. Consumer lag itself you'll get from
                Confluent's metrics API, no need to compute it in-process.
                """
            ),
            key="s2-metrics",
        ),
        u(
            "Quick one while I wire that in: CommitRecords vs CommitUncommittedOffsets. You used the second in "
            "the first version and the first one now. What's the difference in practice?"
        ),
        a(
            w(
                r"""
                Both commit offsets for the group; they differ in *which* offsets:

                - **`CommitUncommittedOffsets`** commits the position of everything that has been
                  *polled* and not yet committed, on every partition. In the first version that was
                  correct, because each loop iteration inserted everything it had polled before
                  committing.
                - **`CommitRecords(ctx, recs...)`** commits, per partition, the offset after the highest
                  record you pass in. With a batcher, you've polled records that are still sitting in
                  the buffer waiting for the next flush. `CommitUncommittedOffsets` would commit those
                  too — the exact bug we just removed, in a new disguise. `CommitRecords` with the
                  flushed batch's records commits only what ClickHouse has acknowledged.

                One subtlety: franz-go's commit is per partition and takes the highest offset you give
                it, so the order of records in the slice doesn't matter, and committing a lower offset
                than an earlier commit doesn't move the group backwards within the same session.

                So the rule of thumb for this service: once there's any buffering between poll and
                insert, only ever commit *records*, never *positions*.
                """
            )
        ),
        u("What happens on SIGTERM with this version? Our pods get the default 30 seconds."),
        a(
            w(
                r"""
                On SIGTERM, `signal.NotifyContext` cancels `ctx`. The poll loop notices on its next
                iteration (at most 250 ms later, because of the poll timeout), and calls
                `c.flush(context.Background())` — a final flush with a fresh context, so it isn't
                cancelled by the same signal. If it succeeds, the records are committed and `Run`
                returns; `main` closes the client, which leaves the group cleanly, so the partitions are
                reassigned immediately instead of after the session timeout.

                Timing: with 5,000 rows the final insert takes well under a second, so 30 seconds is
                plenty *today*. Two things will change that later: retries (a final flush that hits a
                ClickHouse blip could retry for longer than 30 s) and bigger batches. When we add
                retries, we'll bound the final flush with its own timeout of, say, 20 s, and raise
                `terminationGracePeriodSeconds` if needed.

                If Kubernetes kills the pod mid-flush, nothing is lost: nothing was committed, the new
                owner re-reads the batch. You'd get duplicates, not gaps — which is the right way round
                for this data, and something the table design will have to absorb anyway.
                """
            )
        ),
        u(
            w(
                r"""
                Good. Tests for the batcher please. How I like them: the plain testing package,
                table-driven tests, no testify or gomock. I want to read `if got != want` and know exactly
                what failed without learning someone's assertion DSL.

                And heads up, Priya Nair reviews everything that goes into this repo. She's our most
                careful reviewer and she reads tests first.
                """
            ),
            key="pref-testing",
        ),
        a(
            w(
                r"""
                Plain `testing`, table-driven, no assertion library. The batcher is easy to test because
                `shouldFlush` takes `now` as a parameter — no sleeping, no fake clocks.

                **batcher_test.go**

                ```go
                package main

                import (
                    "context"
                    "errors"
                    "testing"
                    "time"

                    "github.com/twmb/franz-go/pkg/kgo"
                )

                func TestShouldFlush(t *testing.T) {
                    t0 := time.Date(2026, 1, 20, 14, 0, 0, 0, time.UTC)
                    cfg := BatchConfig{MaxRows: 3, MaxWait: time.Second}

                    tests := []struct {
                        name string
                        adds int
                        now  time.Time
                        want bool
                    }{
                        {"empty never flushes", 0, t0.Add(time.Hour), false},
                        {"below size and age", 2, t0.Add(500 * time.Millisecond), false},
                        {"size reached", 3, t0, true},
                        {"age reached", 1, t0.Add(time.Second), true},
                        {"age just under", 1, t0.Add(999 * time.Millisecond), false},
                    }
                    for _, tt := range tests {
                        t.Run(tt.name, func(t *testing.T) {
                            b := NewBatcher(cfg)
                            for i := 0; i < tt.adds; i++ {
                                b.Add(PaymentEvent{EventID: "e"}, &kgo.Record{Offset: int64(i)}, t0)
                            }
                            if got := b.shouldFlush(tt.now); got != tt.want {
                                t.Errorf("shouldFlush() = %v, want %v", got, tt.want)
                            }
                        })
                    }
                }

                func TestFlush(t *testing.T) {
                    t0 := time.Date(2026, 1, 20, 14, 0, 0, 0, time.UTC)
                    errCH := errors.New("clickhouse down")

                    tests := []struct {
                        name        string
                        insertErr   error
                        wantRecords int
                        wantLenAfter int
                        wantErr     bool
                    }{
                        {"success returns records and empties buffer", nil, 2, 0, false},
                        {"failure keeps buffer for retry", errCH, 0, 2, true},
                    }
                    for _, tt := range tests {
                        t.Run(tt.name, func(t *testing.T) {
                            b := NewBatcher(BatchConfig{MaxRows: 10, MaxWait: time.Second})
                            b.Add(PaymentEvent{EventID: "a"}, &kgo.Record{Offset: 1}, t0)
                            b.Add(PaymentEvent{EventID: "b"}, &kgo.Record{Offset: 2}, t0)

                            recs, err := b.Flush(context.Background(), func(context.Context, []PaymentEvent) error {
                                return tt.insertErr
                            })
                            if (err != nil) != tt.wantErr {
                                t.Fatalf("Flush() err = %v, wantErr %v", err, tt.wantErr)
                            }
                            if got := len(recs); got != tt.wantRecords {
                                t.Errorf("records = %d, want %d", got, tt.wantRecords)
                            }
                            if got := b.Len(); got != tt.wantLenAfter {
                                t.Errorf("Len() after = %d, want %d", got, tt.wantLenAfter)
                            }
                        })
                    }
                }
                ```

                If Priya reads tests first, the second table is the one to point her at: it's the
                contract that a failed insert never loses the buffer, which is the whole reason the
                offsets-after-insert fix works.
                """
            )
        ),
        u(
            "She approved it with one comment: she wants the oldest-record timestamp check to use the Kafka "
            "record timestamp, not the time we polled it. Her argument is that after a restart with lag, "
            "every record is 'old' and we'd flush tiny batches in a tight loop."
        ),
        a(
            w(
                r"""
                She's half right, and the half she's right about matters. Two different clocks are in
                play:

                | Clock | Measures | Good for |
                |---|---|---|
                | poll time (`now` in `Add`) | how long a row has sat in *our* buffer | deciding when to flush |
                | `Record.Timestamp` | how long since the producer wrote it | the end-to-end metric, SLO |

                If `shouldFlush` used the record timestamp, her scenario actually gets *worse*: after a
                restart with an hour of lag, every record is an hour old, so the age condition is true
                immediately and we'd flush after every poll — exactly the tiny-batch loop she's worried
                about. With poll time, a catch-up fills batches to MaxRows as fast as Kafka delivers,
                which is what you want during recovery.

                Where she is right: the end-to-end histogram must use `Record.Timestamp`, and it does.
                I'd reply with the table and offer a test case that pins it: add a row to
                `TestShouldFlush` with records whose timestamps are an hour old but polled just now, and
                `want: false`.
                """
            )
        ),
        u(
            "Replied with that, she agreed and merged. She also said 'nice table' which from Priya is basically "
            "a standing ovation. Cycling home now, it's sleeting, Amsterdam in January is a joke."
        ),
        a("Ha — congratulations on the merge, and mind the tram tracks in the sleet."),
    ],
)

S3 = Session(
    "2026-01-29T10:40:00Z",
    [
        u(
            w(
                r"""
                Next milestone: load testing. Joana wants numbers before we turn off the Python job. Black
                Friday peak last year was around 9,000 events per second on payments and she wants us to
                show comfortable headroom over that, so I'm aiming for 20,000/s sustained.

                I need two things: a local stack I can bring up with one command so I can iterate without
                staging, and a way to generate realistic load against staging. What would you use to
                generate the load?
                """
            )
        ),
        a(
            w(
                r"""
                For generating Kafka load there are three realistic options:

                | Tool | Pros | Cons |
                |---|---|---|
                | `kafka-producer-perf-test` | ships with Kafka, very fast | fixed random payloads, no realistic JSON, no ramping |
                | a small Go producer | full control, same codebase | you maintain it, and you'll end up building k6 badly |
                | k6 with the xk6-kafka extension | scripted payloads, ramping stages, thresholds, nice summary | need to build a custom k6 binary |

                I'd go with **k6 + xk6-kafka**. The deciding factor is realistic payloads: your decode
                cost depends heavily on the JSON shape, so random bytes would flatter the ingester. With
                k6 you write a JavaScript function that generates a payment event with a plausible
                merchant distribution (a few big merchants and a long tail — that matters for how rows
                spread across shards), and you get ramp stages for free.

                Build the binary once with `xk6 build --with github.com/mostafa/xk6-kafka@latest` and
                keep it in the repo's tools image.

                For the local stack: Redpanda in a single container speaks the Kafka protocol and starts
                in seconds, plus a single ClickHouse 24.3 node. It won't tell you anything about
                replication, but it's perfect for iterating on the code path.
                """
            ),
            key="s3-tool",
        ),
        u(
            "k6 + xk6-kafka it is. For the one-command part: I keep every dev command in a Makefile. I tried "
            "Taskfile and just last year and neither stuck, so please don't suggest them.",
            key="pref-make",
        ),
        a(
            w(
                r"""
                Makefile it is. Here's the whole local setup.

                **deploy/local/docker-compose.yml**

                ```yaml
                services:
                  redpanda:
                    image: redpandadata/redpanda:v23.3.5
                    command:
                      - redpanda start
                      - --overprovisioned
                      - --smp 2
                      - --memory 2G
                      - --kafka-addr PLAINTEXT://0.0.0.0:9092
                      - --advertise-kafka-addr PLAINTEXT://localhost:9092
                    ports:
                      - "9092:9092"
                  clickhouse:
                    image: clickhouse/clickhouse-server:24.3
                    ports:
                      - "9000:9000"
                      - "8123:8123"
                    ulimits:
                      nofile: { soft: 262144, hard: 262144 }
                    volumes:
                      - ./init.sql:/docker-entrypoint-initdb.d/init.sql:ro
                ```

                `init.sql` is the DDL from earlier with `MergeTree` instead of `ReplicatedMergeTree` and no
                `ON CLUSTER`, and the ingester pointed at `payment_events` directly.

                **loadtest/payments_load.js**

                ```javascript
                import { Writer, SchemaRegistry, SCHEMA_TYPE_JSON } from "k6/x/kafka";
                import { randomIntBetween } from "https://jslib.k6.io/k6-utils/1.4.0/index.js";

                const brokers = (__ENV.KAFKA_BROKERS || "localhost:9092").split(",");
                const topic = __ENV.TOPIC || "payments.events.v1";
                const writer = new Writer({ brokers, topic, autoCreateTopic: false });
                const schemaRegistry = new SchemaRegistry();

                // 20 big merchants take ~60% of traffic, a long tail of 5,000 takes the rest.
                function merchant() {
                  if (Math.random() < 0.6) return `m_big_${randomIntBetween(1, 20)}`;
                  return `m_${randomIntBetween(1, 5000)}`;
                }

                const types = ["authorised", "captured", "captured", "captured", "declined", "settled"];

                export const options = {
                  scenarios: {
                    ramp: {
                      executor: "ramping-arrival-rate",
                      startRate: 500,
                      timeUnit: "1s",
                      preAllocatedVUs: 50,
                      maxVUs: 400,
                      stages: [
                        { target: 5000, duration: "2m" },
                        { target: 20000, duration: "5m" },
                        { target: 20000, duration: "15m" },
                        { target: 0, duration: "1m" },
                      ],
                    },
                  },
                };

                export default function () {
                  const batch = [];
                  for (let i = 0; i < 10; i++) {
                    const ev = {
                      event_id: `${__VU}-${__ITER}-${i}-${Date.now()}`,
                      merchant_id: merchant(),
                      type: types[randomIntBetween(0, types.length - 1)],
                      amount: `${randomIntBetween(100, 250000) / 100}`,
                      currency: Math.random() < 0.9 ? "EUR" : "GBP",
                      event_time: new Date().toISOString(),
                    };
                    batch.push({
                      key: schemaRegistry.serialize({ data: ev.merchant_id, schemaType: SCHEMA_TYPE_JSON }),
                      value: schemaRegistry.serialize({ data: ev, schemaType: SCHEMA_TYPE_JSON }),
                    });
                  }
                  writer.produce({ messages: batch });
                }

                export function teardown() {
                  writer.close();
                }
                ```

                Each iteration produces 10 messages, so the arrival rate stages are in *iterations* —
                20,000 iterations/s would be 200,000 events/s. For staging set the targets to 2,000
                iterations/s to get your 20,000 events/s. (I left the local numbers low on purpose; the
                laptop won't take more.)

                **Makefile**

                ```makefile
                K6 ?= ./bin/k6
                COMPOSE = docker compose -f deploy/local/docker-compose.yml

                .PHONY: up down run test lint loadtest-local loadtest-staging

                up:
                	$(COMPOSE) up -d
                	@until docker exec $$($(COMPOSE) ps -q clickhouse) clickhouse-client -q 'SELECT 1' >/dev/null 2>&1; do sleep 1; done
                	docker exec $$($(COMPOSE) ps -q redpanda) rpk topic create payments.events.v1 -p 24 || true

                down:
                	$(COMPOSE) down -v

                run:
                	KAFKA_BROKERS=localhost:9092 CH_ADDRS=localhost:9000 CH_TABLE=payment_events go run .

                test:
                	go test -race ./...

                lint:
                	golangci-lint run

                loadtest-local:
                	$(K6) run -e KAFKA_BROKERS=localhost:9092 loadtest/payments_load.js

                loadtest-staging:
                	$(K6) run -e KAFKA_BROKERS=$(STAGING_BROKERS) loadtest/payments_load.js
                ```

                `make up && make run` in one terminal, `make loadtest-local` in another.
                """
            ),
            key="s3-k6",
        ),
        u(
            w(
                r"""
                Hit a snag: I run k6 from our tools container, not from the host, and it can't produce:

                ```
                ERRO[0003] Failed to write message: dial tcp 127.0.0.1:9092: connect: connection refused
                ERRO[0003] GoError: Error writing messages, OriginalError: dial tcp 127.0.0.1:9092: connect: connection refused
                ```

                The evingest binary on the host is fine. I passed KAFKA_BROKERS=redpanda:9092 and it
                still says 127.0.0.1.
                """
            )
        ),
        a(
            w(
                r"""
                Classic Kafka networking: the broker address you connect to is only used for the first
                request. The broker then answers with its *advertised* address, and every later
                connection goes there. We advertise `localhost:9092`, so inside the tools container the
                client connects to `redpanda:9092`, is told "talk to me at localhost:9092", and
                localhost in that container is the container itself. Hence 127.0.0.1, connection
                refused.

                The fix is two listeners: one advertised as `localhost` for the host, one advertised as
                `redpanda` for other containers on the compose network.

                ```yaml
                services:
                  redpanda:
                    image: redpandadata/redpanda:v23.3.5
                    command:
                      - redpanda start
                      - --overprovisioned
                      - --smp 2
                      - --memory 2G
                      - --kafka-addr internal://0.0.0.0:29092,external://0.0.0.0:9092
                      - --advertise-kafka-addr internal://redpanda:29092,external://localhost:9092
                    ports:
                      - "9092:9092"
                  clickhouse:
                    image: clickhouse/clickhouse-server:24.3
                    ports:
                      - "9000:9000"
                      - "8123:8123"
                    ulimits:
                      nofile: { soft: 262144, hard: 262144 }
                    volumes:
                      - ./init.sql:/docker-entrypoint-initdb.d/init.sql:ro
                ```

                From the host: `localhost:9092`. From the tools container (attached to the compose
                network with `--network local_default`): `redpanda:29092`. The same issue exists on
                Confluent Cloud in reverse, which is why their bootstrap addresses already resolve to
                publicly advertised names — staging won't have this problem.

                In the Makefile, `loadtest-local` should then pass `KAFKA_BROKERS=redpanda:29092` if you
                run it from the container.
                """
            )
        ),
        u(
            "Ran it locally, works. Staging run is tonight. One rule before you see the results: whenever you "
            "report load test results, give me a table with throughput in events per second and p50, p95, p99 "
            "latency in milliseconds. No averages. Averages hide every problem I've ever had.",
            key="si-loadtable",
        ),
        a(
            w(
                r"""
                Agreed, and noted for all future runs: a table, events per second, p50/p95/p99 in ms, no
                averages. A mean of 200 ms can hide a p99 of 4 seconds.

                For tonight, capture these so we can fill the table properly:

                - k6 summary (achieved iteration rate × 10 = produced events/s)
                - `rate(evingest_rows_inserted_total[1m])` summed over pods — ingested events/s
                - `histogram_quantile(0.5|0.95|0.99, sum by (le) (rate(evingest_end_to_end_seconds_bucket[5m])))`
                - same for `evingest_flush_duration_seconds`
                - consumer lag from Confluent for the group, start and end of the plateau
                - pod CPU and memory

                How many ingester replicas are you running on staging?
                """
            )
        ),
        u("Three pods, 1 CPU / 1 GiB each."),
        u(
            w(
                r"""
                Results from last night. k6 said it held 2,000 it/s the whole plateau. Our side:

                ```
                2026-01-28T21:12Z plateau start
                sum(rate(evingest_rows_inserted_total[1m]))   ~14.1k-14.3k, flat
                end_to_end p50 0.64s  p95 1.31s  p99 1.85s   (first 5 min of plateau)
                flush_duration p50 0.09s p95 0.28s p99 0.41s
                lag: 0 -> 5.1M over the 15 minute plateau
                cpu: all three pods pinned at 1.0
                mem: ~410 MiB each
                ```

                So we didn't keep up. Latency looks fine only because I took it before the lag piled up.
                """
            )
        ),
        a(
            w(
                r"""
                Good run — it told us something clear. Here it is in the agreed format:

                | Run | Produced (events/s) | Ingested (events/s) | e2e p50 (ms) | e2e p95 (ms) | e2e p99 (ms) | flush p99 (ms) |
                |---|---|---|---|---|---|---|
                | staging 2026-01-28, 3 pods × 1 CPU | 20,000 | 14,200 | 640 | 1,310 | 1,850 | 410 |

                The end-to-end figures are only valid for the first minutes; after that lag grows at about
                5,800 events/s and latency grows without bound. So the honest headline is: **we sustain
                about 14,200 events/s on three pods**, and we're **CPU-bound**, not ClickHouse-bound.

                Why I'm confident it's CPU and not ClickHouse:

                - flush p99 is 410 ms for ~5,000 rows — ClickHouse is taking the inserts comfortably;
                - all three pods at exactly 1.0 CPU while lag grows;
                - memory is flat, so we aren't buffering, we're just slow to decode.

                Where the CPU goes, almost certainly: `encoding/json` with reflection (the slowest
                decoder in the ecosystem), plus the fact that decode and insert happen on the same
                goroutine — while a flush is in flight, nothing is decoded. Also, 24 partitions across 3
                pods is 8 each; we could give the pods more CPU or run more pods, but let's make the code
                efficient before throwing cores at it.

                Next steps, in order of expected payoff:

                1. Grab a CPU profile during a run (`net/http/pprof` on the metrics port) to confirm.
                2. Decouple decode from insert: a flusher goroutine with a channel of ready batches.
                3. Faster decode — either a generated decoder or `goccy/go-json`.
                4. Only then: more replicas or CPU.
                """
            ),
            key="s3-results",
        ),
        u(
            "Correction from last week, by the way: the freshness SLO is 10 seconds, not 30. I was remembering "
            "the number from the old Python job's design doc. Joana put me right this morning.",
            key="ku-slo-new",
        ),
        a(
            w(
                r"""
                Thanks — 10 seconds changes the tolerances, not the design. Rough budget:

                | Stage | Budget |
                |---|---|
                | producer → Kafka → fetched by us | ~0.5 s |
                | waiting in the batch (MaxWait) | up to 1 s |
                | insert into the Distributed table | ~0.5 s |
                | Distributed → shard replica, visible to queries | up to ~2 s under load |
                | headroom for retries and GC | the rest |

                So at a steady state we're fine; the real risk to a 10-second SLO is *lag*, like last
                night. Once lag builds, freshness is gone in minutes. That's also the argument for an
                alert on consumer lag rather than on end-to-end latency: lag rises first.

                I'd also keep MaxWait at 1s for now. Raising it buys bigger batches but eats the budget.
                """
            )
        ),
        u(
            "Makes sense. Profiling tomorrow. Unrelated: I signed up for my first half marathon, Leiden in "
            "May, so my evenings are now intervals along the Amstel and my knees are filing complaints.",
            key="s3-race",
        ),
        a(
            "Good luck with it — and go easy on the knees early on; most first-timers get hurt by adding "
            "distance too fast rather than by the intervals. Send the profile when you have it."
        ),
    ],
)

S4 = Session(
    "2026-02-05T16:10:00Z",
    [
        u(
            w(
                r"""
                Profile from a staging run at 2,000 it/s, 30 seconds, one pod:

                ```
                (pprof) top 12
                Showing nodes accounting for 21.84s, 78.02% of 27.99s total
                      flat  flat%   sum%        cum   cum%
                     4.91s 17.54% 17.54%     13.47s 48.12%  encoding/json.(*decodeState).object
                     2.38s  8.50% 26.04%      2.38s  8.50%  runtime.memclrNoHeapPointers
                     2.11s  7.54% 33.58%      3.02s 10.79%  encoding/json.(*decodeState).literalStore
                     1.96s  7.00% 40.58%      1.96s  7.00%  runtime.memmove
                     1.74s  6.22% 46.80%      5.80s 20.72%  runtime.mallocgc
                     1.62s  5.79% 52.59%      1.62s  5.79%  encoding/json.stateInString
                     1.51s  5.39% 57.98%      1.51s  5.39%  strconv.readFloat
                     1.33s  4.75% 62.73%      2.06s  7.36%  github.com/ClickHouse/clickhouse-go/v2/lib/column.(*String).Append
                     1.21s  4.32% 67.05%      1.21s  4.32%  runtime.scanobject
                     1.09s  3.89% 70.94%      1.09s  3.89%  encoding/json.unquoteBytes
                     0.61s  2.18% 73.12%      0.98s  3.50%  time.parse
                     0.37s  1.32% 74.44%      0.37s  1.32%  runtime.findObject
                ```

                And a second thing, possibly related, possibly not: Keiko pinged me that the daily total
                for one of the big merchants in ClickHouse is off by 3 cents compared to the finance
                report from Postgres. Out of about 1.2 million euros. She wasn't upset, more curious.
                """
            )
        ),
        a(
            w(
                r"""
                Both are related to the same line of code, in a way.

                **The profile.** About half the CPU is `encoding/json` (48% cumulative under
                `decodeState.object`), another ~20% is allocation and GC. `strconv.readFloat` at 5% is the
                amount being parsed as a float. The ClickHouse side is under 8%. So: confirmed CPU-bound
                on decoding, as suspected.

                **Keiko's 3 cents.** That's the amounts as float64 bug we parked on day one, now visible
                in real data. The producer sends `"amount": "1249.99"` as a string (the k6 script mimics
                that), the prototype's struct has `Amount float64` and the `,string`-less decode path
                parses it into a float, and the column stores it... as whatever conversion the driver does
                into the table. A value like 1249.99 has no exact binary representation; summed over
                hundreds of thousands of rows, the rounding errors accumulate into cents. Finance will
                find this eventually, so it's good Keiko found it first.

                The fix is to never have a float in the path: parse the decimal string straight into
                integer minor units.

                **event.go**

                ```go
                package main

                import (
                    "errors"
                    "fmt"
                    "strings"
                    "time"
                )

                // wireEvent is the JSON shape on payments.events.v1.
                type wireEvent struct {
                    EventID    string `json:"event_id"`
                    MerchantID string `json:"merchant_id"`
                    Type       string `json:"type"`
                    Amount     string `json:"amount"`
                    Currency   string `json:"currency"`
                    EventTime  string `json:"event_time"`
                }

                // PaymentEvent is the row we insert.
                type PaymentEvent struct {
                    EventID     string
                    MerchantID  string
                    EventType   string
                    AmountMinor int64
                    Currency    string
                    EventTime   time.Time
                    Partition   uint16
                    Offset      uint64
                }

                var errAmount = errors.New("invalid amount")

                // parseAmountMinor turns "1249.99" into 124999 without touching floating point.
                // Currencies with other exponents (JPY: 0, BHD: 3) get their own table later; all
                // current traffic is EUR/GBP, exponent 2.
                func parseAmountMinor(s string) (int64, error) {
                    neg := strings.HasPrefix(s, "-")
                    if neg {
                        s = s[1:]
                    }
                    whole, frac, _ := strings.Cut(s, ".")
                    if whole == "" || len(frac) > 2 {
                        return 0, fmt.Errorf("%w: %q", errAmount, s)
                    }
                    for len(frac) < 2 {
                        frac += "0"
                    }
                    var n int64
                    for _, c := range whole + frac {
                        if c < '0' || c > '9' {
                            return 0, fmt.Errorf("%w: %q", errAmount, s)
                        }
                        n = n*10 + int64(c-'0')
                    }
                    if neg {
                        n = -n
                    }
                    return n, nil
                }

                func (w wireEvent) toRow(partition int32, offset int64) (PaymentEvent, error) {
                    amt, err := parseAmountMinor(w.Amount)
                    if err != nil {
                        return PaymentEvent{}, err
                    }
                    t, err := time.Parse(time.RFC3339Nano, w.EventTime)
                    if err != nil {
                        return PaymentEvent{}, fmt.Errorf("event_time: %w", err)
                    }
                    return PaymentEvent{
                        EventID:     w.EventID,
                        MerchantID:  w.MerchantID,
                        EventType:   w.Type,
                        AmountMinor: amt,
                        Currency:    w.Currency,
                        EventTime:   t.UTC(),
                        Partition:   uint16(partition),
                        Offset:      uint64(offset),
                    }, nil
                }
                ```

                `toRow` also fixes the event time being inserted as a raw string. The existing rows with
                float amounts need a backfill — easiest is to re-consume from the earliest retained
                offset into a fresh table and swap it in, since Kafka retention still covers the whole
                period the ingester has been running. How long is retention on payments.events.v1?

                For the decode cost itself, two options: `github.com/goccy/go-json` (a drop-in replacement
                for `encoding/json`, typically 2–3× faster on structs like this) or a code-generated
                decoder like easyjson (faster still, but a generate step and generated files in the
                repo).
                """
            ),
            key="s4-float",
        ),
        u(
            "Retention is 7 days, we're fine for the backfill. goccy/go-json, drop-in wins, I don't want "
            "generated files. And yes please to the separate flusher goroutine."
        ),
        a(
            w(
                r"""
                Here's the pipeline version of the consumer. The poll loop decodes and batches; when a
                batch is ready it goes onto a channel with capacity 2, and a flusher goroutine inserts and
                commits. Capacity 2 means at most one batch in flight and one waiting — if ClickHouse
                slows down, the channel fills, the poll loop blocks on the send, and polling stops. That's
                the back-pressure we discussed, made explicit.

                **consumer.go**

                ```go
                package main

                import (
                    "context"
                    "log/slog"
                    "time"

                    json "github.com/goccy/go-json"
                    "github.com/twmb/franz-go/pkg/kgo"
                )

                type readyBatch struct {
                    rows    []PaymentEvent
                    records []*kgo.Record
                    oldest  time.Time // oldest Kafka timestamp, for the end-to-end metric
                }

                type Consumer struct {
                    cl      *kgo.Client
                    sink    *Sink
                    cfg     BatchConfig
                    logger  *slog.Logger
                    ready   chan readyBatch
                    flushed chan error
                }

                func NewConsumer(cfg KafkaConfig, bc BatchConfig, sink *Sink, logger *slog.Logger) (*Consumer, error) {
                    cl, err := kgo.NewClient(
                        kgo.SeedBrokers(cfg.Brokers...),
                        kgo.ConsumerGroup(cfg.Group),
                        kgo.ConsumeTopics(cfg.Topics...),
                        kgo.DisableAutoCommit(),
                        kgo.FetchMaxBytes(50<<20),
                        kgo.MaxConcurrentFetches(4),
                        kgo.FetchMaxWait(250*time.Millisecond),
                    )
                    if err != nil {
                        return nil, err
                    }
                    return &Consumer{
                        cl: cl, sink: sink, cfg: bc, logger: logger,
                        ready:   make(chan readyBatch, 2),
                        flushed: make(chan error, 1),
                    }, nil
                }

                func (c *Consumer) Run(ctx context.Context) error {
                    go c.flusher(ctx)
                    b := NewBatcher(c.cfg)
                    for {
                        pollCtx, cancel := context.WithTimeout(ctx, 250*time.Millisecond)
                        fetches := c.cl.PollRecords(pollCtx, 10_000)
                        cancel()
                        if ctx.Err() != nil {
                            c.handOff(context.Background(), b)
                            close(c.ready)
                            return <-c.flushed
                        }
                        now := time.Now()
                        fetches.EachRecord(func(r *kgo.Record) {
                            var w wireEvent
                            if err := json.Unmarshal(r.Value, &w); err != nil {
                                c.logger.Warn("undecodable record", "topic", r.Topic, "partition", r.Partition,
                                    "offset", r.Offset, "err", err)
                                return
                            }
                            row, err := w.toRow(r.Partition, r.Offset)
                            if err != nil {
                                c.logger.Warn("invalid record", "topic", r.Topic, "partition", r.Partition,
                                    "offset", r.Offset, "err", err)
                                return
                            }
                            b.Add(row, r, now)
                        })
                        if b.shouldFlush(time.Now()) {
                            if err := c.handOff(ctx, b); err != nil {
                                return err
                            }
                        }
                        select {
                        case err := <-c.flushed:
                            return err
                        default:
                        }
                    }
                }

                // handOff moves the batcher's contents onto the ready channel, blocking if two
                // batches are already queued: this is where back-pressure stops polling.
                func (c *Consumer) handOff(ctx context.Context, b *Batcher) error {
                    rows, recs := b.Take()
                    if len(rows) == 0 {
                        return nil
                    }
                    oldest := recs[0].Timestamp
                    for _, r := range recs {
                        if r.Timestamp.Before(oldest) {
                            oldest = r.Timestamp
                        }
                    }
                    select {
                    case c.ready <- readyBatch{rows: rows, records: recs, oldest: oldest}:
                        return nil
                    case <-ctx.Done():
                        return ctx.Err()
                    }
                }

                func (c *Consumer) flusher(ctx context.Context) {
                    for rb := range c.ready {
                        start := time.Now()
                        if err := c.sink.Insert(ctx, rb.rows); err != nil {
                            insertErrors.Inc()
                            c.flushed <- err
                            return
                        }
                        flushSeconds.Observe(time.Since(start).Seconds())
                        batchRows.Observe(float64(len(rb.rows)))
                        rowsInserted.Add(float64(len(rb.rows)))
                        endToEndSeconds.Observe(time.Since(rb.oldest).Seconds())
                        if err := c.cl.CommitRecords(context.Background(), rb.records...); err != nil {
                            c.logger.Error("commit failed", "err", err)
                        }
                    }
                    c.flushed <- nil
                }

                func (c *Consumer) Close() { c.cl.Close() }
                ```

                The batcher gets a `Take()` method that returns and resets its slices (the `Flush`
                method goes away, its contract moves into the flusher). Updated **batcher.go**:

                ```go
                package main

                import (
                    "time"

                    "github.com/twmb/franz-go/pkg/kgo"
                )

                type BatchConfig struct {
                    MaxRows int
                    MaxWait time.Duration
                }

                type Batcher struct {
                    cfg     BatchConfig
                    rows    []PaymentEvent
                    records []*kgo.Record
                    oldest  time.Time
                }

                func NewBatcher(cfg BatchConfig) *Batcher {
                    return &Batcher{cfg: cfg,
                        rows:    make([]PaymentEvent, 0, cfg.MaxRows),
                        records: make([]*kgo.Record, 0, cfg.MaxRows)}
                }

                func (b *Batcher) Add(ev PaymentEvent, r *kgo.Record, now time.Time) {
                    if len(b.rows) == 0 {
                        b.oldest = now
                    }
                    b.rows = append(b.rows, ev)
                    b.records = append(b.records, r)
                }

                // shouldFlush reports whether the buffer is full or its oldest row has waited long enough.
                func (b *Batcher) shouldFlush(now time.Time) bool {
                    if len(b.rows) == 0 {
                        return false
                    }
                    return len(b.rows) >= b.cfg.MaxRows || now.Sub(b.oldest) >= b.cfg.MaxWait
                }

                func (b *Batcher) Len() int { return len(b.rows) }

                func (b *Batcher) Take() ([]PaymentEvent, []*kgo.Record) {
                    rows, recs := b.rows, b.records
                    b.rows = make([]PaymentEvent, 0, b.cfg.MaxRows)
                    b.records = make([]*kgo.Record, 0, b.cfg.MaxRows)
                    return rows, recs
                }
                ```

                `TestFlush` becomes a test of `Take` plus a flusher test with a fake sink; I'll write
                those once the retry logic is in, since the flusher changes again.
                """
            )
        ),
        u(
            w(
                r"""
                OK, retries now. Currently the flusher still gives up on the first error and the pod
                restarts. What I want: retry transient errors with backoff, and if a batch keeps
                failing, or if ClickHouse rejects rows as bad data, get them out of the way onto a
                dead-letter topic so one poison message can't block a partition forever. What policy
                would you pick?
                """
            )
        ),
        a(
            w(
                r"""
                The key is to separate *ClickHouse is unavailable* from *this data is bad*, because they
                need opposite reactions:

                | Error class | Examples | Reaction |
                |---|---|---|
                | transient | connection refused, `i/o timeout`, code 242 `TABLE_IS_READ_ONLY`, 252 `TOO_MANY_PARTS`, 159 `TIMEOUT_EXCEEDED` | retry the same batch with backoff; never DLQ — the data is fine |
                | data | code 27 `CANNOT_PARSE_INPUT_ASSERTION_FAILED`, 53 `TYPE_MISMATCH`, 6 `CANNOT_PARSE_TEXT` | bisect the batch to find the bad rows, DLQ them, insert the rest |
                | unknown | anything else | retry up to the limit, then DLQ the batch |

                Policy: exponential backoff starting at **200ms**, doubling, capped at **10s**, with full
                jitter, up to **8 attempts** (≈ 35 s worst case) — then the batch goes to the DLQ topic
                `evingest.dlq.v1`, with the original topic, partition, offset and the error in headers,
                and offsets are committed so the partition moves on. For purely transient errors I'd
                actually *not* give up after 8: if ClickHouse is down, DLQ-ing everything just moves the
                outage into a topic someone has to replay. So transient errors retry forever (with the
                poll loop blocked by back-pressure) and only unknown errors count towards the limit.

                **retry.go**

                ```go
                package main

                import (
                    "context"
                    "errors"
                    "math/rand/v2"
                    "time"

                    "github.com/ClickHouse/clickhouse-go/v2"
                )

                type RetryPolicy struct {
                    Initial     time.Duration // 200ms
                    Max         time.Duration // 10s
                    MaxAttempts int           // 8, for errors not known to be transient
                }

                var defaultRetry = RetryPolicy{Initial: 200 * time.Millisecond, Max: 10 * time.Second, MaxAttempts: 8}

                type errClass int

                const (
                    classUnknown errClass = iota
                    classTransient
                    classData
                )

                func classify(err error) errClass {
                    var ex *clickhouse.Exception
                    if errors.As(err, &ex) {
                        switch ex.Code {
                        case 242, 252, 159, 209, 210, 999:
                            return classTransient
                        case 6, 27, 53, 70:
                            return classData
                        }
                        return classUnknown
                    }
                    if errors.Is(err, context.DeadlineExceeded) || isNetErr(err) {
                        return classTransient
                    }
                    return classUnknown
                }

                // retryInsert calls insert until it succeeds, the error is a data error, the
                // attempt limit is reached for unknown errors, or ctx ends.
                func retryInsert(ctx context.Context, p RetryPolicy, insert func(context.Context) error, onRetry func(attempt int, err error, wait time.Duration)) error {
                    backoff := p.Initial
                    unknown := 0
                    for attempt := 1; ; attempt++ {
                        err := insert(ctx)
                        if err == nil {
                            return nil
                        }
                        switch classify(err) {
                        case classData:
                            return err
                        case classUnknown:
                            unknown++
                            if unknown >= p.MaxAttempts {
                                return err
                            }
                        }
                        wait := time.Duration(rand.Int64N(int64(backoff)))
                        onRetry(attempt, err, wait)
                        select {
                        case <-time.After(wait):
                        case <-ctx.Done():
                            return ctx.Err()
                        }
                        backoff = min(backoff*2, p.Max)
                    }
                }
                ```

                **dlq.go**

                ```go
                package main

                import (
                    "context"
                    "strconv"

                    "github.com/twmb/franz-go/pkg/kgo"
                )

                const dlqTopic = "evingest.dlq.v1"

                func (c *Consumer) sendToDLQ(ctx context.Context, recs []*kgo.Record, cause error) error {
                    out := make([]*kgo.Record, 0, len(recs))
                    for _, r := range recs {
                        out = append(out, &kgo.Record{
                            Topic: dlqTopic,
                            Key:   r.Key,
                            Value: r.Value,
                            Headers: append(r.Headers,
                                kgo.RecordHeader{Key: "evingest.source_topic", Value: []byte(r.Topic)},
                                kgo.RecordHeader{Key: "evingest.source_partition", Value: []byte(strconv.Itoa(int(r.Partition)))},
                                kgo.RecordHeader{Key: "evingest.source_offset", Value: []byte(strconv.FormatInt(r.Offset, 10))},
                                kgo.RecordHeader{Key: "evingest.error", Value: []byte(cause.Error())},
                            ),
                        })
                    }
                    return c.cl.ProduceSync(ctx, out...).FirstErr()
                }
                ```

                In the flusher, `c.sink.Insert` becomes `retryInsert(ctx, defaultRetry, ...)`; on a data
                error it bisects the batch (split in half, retry each half, recurse down to single rows)
                and DLQs only the rows that fail alone; on an exhausted unknown error it DLQs the batch.
                The undecodable and invalid records from the poll loop go to the same DLQ instead of
                just being logged — that closes the "bad record on a quiet partition gets re-read"
                wrinkle from before. Create the topic with 6 partitions and 14 days' retention: someone
                needs time to look at it after a long weekend.
                """
            ),
            key="s4-retry",
        ),
        u(
            "We manage Confluent topics in Terraform (the confluentinc/confluent provider). What does the DLQ "
            "topic look like there?"
        ),
        a(
            w(
                r"""
                Here's the resource plus the ACLs evingest's service account needs to produce to it. I'm
                assuming the cluster and service account already exist in your config as
                `confluent_kafka_cluster.main` and `confluent_service_account.evingest`; rename to match.

                ```hcl
                resource "confluent_kafka_topic" "evingest_dlq" {
                  kafka_cluster {
                    id = confluent_kafka_cluster.main.id
                  }
                  topic_name       = "evingest.dlq.v1"
                  partitions_count = 6
                  rest_endpoint    = confluent_kafka_cluster.main.rest_endpoint

                  config = {
                    "cleanup.policy"      = "delete"
                    "retention.ms"        = "1209600000" # 14 days
                    "max.message.bytes"   = "2097152"
                    "min.insync.replicas" = "2"
                  }

                  credentials {
                    key    = var.kafka_admin_key
                    secret = var.kafka_admin_secret
                  }
                }

                resource "confluent_kafka_acl" "evingest_dlq_write" {
                  kafka_cluster {
                    id = confluent_kafka_cluster.main.id
                  }
                  resource_type = "TOPIC"
                  resource_name = confluent_kafka_topic.evingest_dlq.topic_name
                  pattern_type  = "LITERAL"
                  principal     = "User:${confluent_service_account.evingest.id}"
                  host          = "*"
                  operation     = "WRITE"
                  permission    = "ALLOW"
                  rest_endpoint = confluent_kafka_cluster.main.rest_endpoint

                  credentials {
                    key    = var.kafka_admin_key
                    secret = var.kafka_admin_secret
                  }
                }
                ```

                Why `max.message.bytes` at 2 MB: DLQ records carry the original value plus headers with
                the error text, and a ClickHouse error message can be long. If an original event was
                close to the source topic's limit, the DLQ copy could otherwise be rejected — and a DLQ
                that can't accept a message is the worst of both worlds.

                Six partitions is plenty; the DLQ should see a handful of records a week. If it ever
                sees thousands, that's an incident, not a throughput problem.
                """
            )
        ),
        u("Looks right. Give me the commit message for the float fix, I'm pushing that one first, ticket ING-31."),
        a(
            w(
                r"""
                ```
                fix: store amounts as integer minor units, not float64

                Parse the amount string straight into cents with parseAmountMinor
                so no value passes through floating point. Daily totals for large
                merchants drifted by a few cents against finance reports. Event
                time is parsed as RFC 3339 and stored in UTC.

                Existing rows need a backfill from the earliest retained offset;
                see ING-32.

                Refs: ING-31
                ```
                """
            )
        ),
        u(
            w(
                r"""
                Perfect. I'm off Friday 2026-02-13 through Monday, my sister Inês is getting married in
                Porto. Looking forward to it apart from the food: I'm vegetarian and a Portuguese
                wedding menu is bacalhau, leitão and more bacalhau, so I'll be living on broa and
                cheese. Backfill can wait until I'm back.
                """
            ),
            key="s4-porto",
        ),
        a(
            "Congratulations to Inês! Ask the caterer ahead for a vegetarian plate — in my experience Portuguese "
            "kitchens will happily do a proper one if asked, rather than leaving you with the bread basket. "
            "The backfill can wait: it's only staging so far, and Postgres is still the source of truth if "
            "anything has aged out of Kafka by then."
        ),
    ],
)

S5 = Session(
    "2026-02-12T09:00:00Z",
    [
        u(
            w(
                r"""
                Second staging load test is in. goccy/go-json, the flusher goroutine and the retry logic
                are all deployed. Same three pods, 1 CPU / 1 GiB. Since last time we couldn't even keep up
                with 20k, I pushed k6 to 4,000 it/s (40k events/s) to find the ceiling.

                ```
                2026-02-11T20:30Z plateau start, 15 min
                k6: 4,000 it/s held, 40.0k events/s produced
                sum(rate(evingest_rows_inserted_total[1m]))   38.2k-38.8k
                end_to_end  p50 0.41s  p95 0.93s  p99 1.62s
                flush       p50 0.12s  p95 0.31s  p99 0.57s
                batch_rows  p50 5000 (basically always full)
                lag: 0 -> 1.3M over the plateau
                cpu: 0.85-0.95 per pod
                ClickHouse: ~22 inserts/s cluster-wide, active parts on payment_events climbing, peaked at 610 on shard 2
                ```

                Then I ran at 3,000 it/s (30k/s) for 15 minutes and lag stayed at zero.
                """
            )
        ),
        a(
            w(
                r"""
                That's a big step. In the usual format:

                | Run | Produced (events/s) | Ingested (events/s) | e2e p50 (ms) | e2e p95 (ms) | e2e p99 (ms) | flush p99 (ms) |
                |---|---|---|---|---|---|---|
                | 2026-01-28, json + single loop | 20,000 | 14,200 | 640 | 1,310 | 1,850 | 410 |
                | 2026-02-11, go-json + flusher, ceiling run | 40,000 | 38,500 | 410 | 930 | 1,620 | 570 |
                | 2026-02-11, go-json + flusher, 30k run | 30,000 | 30,000 | — | — | — | — |

                (Fill in the latency for the 30k run if you have it — it's the more honest steady-state
                figure, since the ceiling run's latency is measured while lag was building.)

                Headline: **about 38,500 events/s on three pods, 2.7× the first run**, and we keep up
                fully at 30,000. Comfortably over the 20,000 goal and more than 4× last Black Friday.

                But the ClickHouse side is now the thing to watch:

                - every batch is full at 5,000 rows, so each pod inserts ~7–8 times a second;
                - ~22 inserts/s across the cluster, each creating a part per partition it touches;
                - 610 active parts on one shard and climbing means merges aren't keeping up. The default
                  `parts_to_delay_insert` is 1,000 per partition and `parts_to_throw_insert` is 3,000;
                  we're not there, but a 15-minute test isn't a Black Friday either.

                CPU is no longer pinned (0.85–0.95), so the pods aren't the limit any more; the next
                lever is **bigger, fewer inserts**. Raising MaxRows costs a bit of memory and a bit of
                latency, and we have room in both. I'd try 20,000.
                """
            ),
            key="s5-results",
        ),
        u(
            w(
                r"""
                30k run latency: p50 0.38s, p95 0.71s, p99 1.04s.

                On batch size — I talked it through with Bilal Haddad, he's our SRE and looks after the
                ClickHouse boxes. He'd rather go further than 20k: he wants ClickHouse to see as few
                inserts as possible, and the SLO has room. So we're setting MaxRows to 50,000 rows and
                MaxWait to 2s on staging, and if it holds, in prod.
                """
            ),
            key="ku-batch-new",
        ),
        a(
            w(
                r"""
                Bilal's call is reasonable — he's the one who gets paged for merge storms. 50,000 rows and
                2s it is. At 38k events/s across three pods that's ~13k events/s per pod, so a pod fills a
                batch roughly every 4 seconds... which means **the 2s MaxWait will fire first**, and
                batches will be about 26,000 rows at that rate, not 50,000. That's fine — it's the right
                behaviour: size caps the memory, time caps the latency. Insert rate drops from ~22/s to
                ~1.5/s cluster-wide.

                Latency budget against the 10-second SLO: up to 2 s waiting in the batch, plus a larger
                insert (expect flush p99 around 1–1.5 s for 26k–50k rows), plus Distributed forwarding.
                Still well inside, but the headroom is smaller than before, so the lag alert matters more.

                Staging deployment env, complete:

                ```yaml
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: evingest
                  namespace: data-ingest
                spec:
                  replicas: 3
                  selector:
                    matchLabels: { app: evingest }
                  template:
                    metadata:
                      labels: { app: evingest }
                      annotations:
                        prometheus.io/scrape: "true"
                        prometheus.io/port: "9102"
                        prometheus.io/path: "/metrics"
                    spec:
                      terminationGracePeriodSeconds: 60
                      containers:
                        - name: evingest
                          image: registry.kestrelpay.internal/evingest:0.4.0
                          env:
                            - { name: KAFKA_BROKERS, valueFrom: { secretKeyRef: { name: evingest-kafka, key: brokers } } }
                            - { name: KAFKA_USER, valueFrom: { secretKeyRef: { name: evingest-kafka, key: user } } }
                            - { name: KAFKA_PASS, valueFrom: { secretKeyRef: { name: evingest-kafka, key: pass } } }
                            - { name: KAFKA_GROUP, value: "evingest-clickhouse" }
                            - { name: KAFKA_TOPICS, value: "payments.events.v1" }
                            - { name: CH_ADDRS, value: "ch-1.fsn.kestrel:9000,ch-2.fsn.kestrel:9000,ch-3.fsn.kestrel:9000,ch-4.fsn.kestrel:9000" }
                            - { name: CH_TABLE, value: "payment_events_all" }
                            - { name: CH_PASSWORD, valueFrom: { secretKeyRef: { name: evingest-ch, key: password } } }
                            - { name: INGEST_MAX_ROWS, value: "50000" }
                            - { name: INGEST_MAX_WAIT, value: "2s" }
                            - { name: METRICS_ADDR, value: ":9102" }
                          ports:
                            - { name: metrics, containerPort: 9102 }
                          readinessProbe:
                            httpGet: { path: /healthz, port: metrics }
                          resources:
                            requests: { cpu: "1", memory: 1Gi }
                            limits: { memory: 1Gi }
                ```

                `terminationGracePeriodSeconds: 60` matters now: on SIGTERM the consumer does a final
                flush, and with retries that can take longer than the default 30 s.

                Do you know if the 1 GiB memory limit was a deliberate choice, or just the template
                default?
                """
            )
        ),
        u("Template default. Nobody thought about it."),
        a(
            w(
                r"""
                Then let's make sure it's enough rather than assume. Rough worst case per pod with the new
                settings:

                | Item | Size |
                |---|---|
                | batch being built: 50,000 rows × ~120 B decoded | ~6 MB |
                | the same 50,000 `*kgo.Record` with raw values (~350 B each) held until commit | ~18 MB |
                | two batches queued + one in flight, ×3 | ~72 MB |
                | franz-go fetch buffers: 4 concurrent × 50 MB max | up to 200 MB |
                | clickhouse-go block buffers during Send | ~30 MB |
                | Go runtime, GC headroom (GOGC=100 doubles live heap) | ×2 |

                That lands around 600 MB in the worst case — under 1 GiB, but not by a lot. I'd set
                `GOMEMLIMIT=800MiB` in the env so the GC works harder before the kernel OOM-kills the pod,
                and leave the limit at 1 GiB. Watch `go_memstats_heap_inuse_bytes` in the next load test;
                if it's regularly above 700 MB, raise the limit to 1.5 GiB rather than shrinking buffers.
                """
            )
        ),
        u(
            "Related: Bilal asked whether we should put an HPA on evingest and let it scale on CPU, like the "
            "API pods. Thoughts?"
        ),
        a(
            w(
                r"""
                I'd say not yet, and not on CPU. Three reasons:

                1. **CPU isn't the signal.** Since the flusher change, a pod that's falling behind because
                   ClickHouse is slow shows *low* CPU — it's blocked on back-pressure. An HPA on CPU would
                   scale *down* exactly when lag is building. The signal that means "we need more
                   consumers" is consumer lag.
                2. **Every scale event is a rebalance.** Each replica change triggers a group rebalance,
                   and every rebalance is a flush-and-commit on all pods plus a short pause in
                   consumption. An HPA that flaps between 3 and 4 replicas would make throughput worse.
                3. **Partitions cap it.** With 24 partitions, anything above 24 pods is idle. The useful
                   range is small, and we know from the load test where we are in it.

                If you want autoscaling later, the right tool is KEDA's Kafka scaler, which scales on
                lag per partition and has a cooldown:

                ```yaml
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata:
                  name: evingest
                  namespace: data-ingest
                spec:
                  scaleTargetRef:
                    name: evingest
                  minReplicaCount: 3
                  maxReplicaCount: 12
                  cooldownPeriod: 900
                  triggers:
                    - type: kafka
                      metadata:
                        bootstrapServers: <confluent bootstrap>
                        consumerGroup: evingest-clickhouse
                        topic: payments.events.v1
                        lagThreshold: "200000"
                        offsetResetPolicy: earliest
                ```

                But with 3 pods comfortably carrying 30,000 events/s and production at a fraction of
                that, a fixed replica count is simpler and more predictable. I'd revisit after the
                first real peak.
                """
            )
        ),
        u("Fixed replicas then. Bilal agrees, he's had enough flapping HPAs for one lifetime."),
        u(
            "Adding GOMEMLIMIT. Can you write the flusher tests now? A fake sink that fails N times then "
            "succeeds, and check we retry, and that data errors go to the DLQ instead."
        ),
        a(
            w(
                r"""
                Here's **flusher_test.go** — same style as the batcher tests: one table, plain `testing`,
                fakes written by hand. To make this testable I pulled the DLQ producer behind a tiny
                interface (`dlqWriter`) so the test can record what would have been sent, and the retry
                policy is passed in so tests use 1 ms backoff.

                ```go
                package main

                import (
                    "context"
                    "errors"
                    "testing"
                    "time"

                    "github.com/ClickHouse/clickhouse-go/v2"
                    "github.com/twmb/franz-go/pkg/kgo"
                )

                type fakeSink struct {
                    failures []error // returned in order, then nil forever
                    calls    int
                }

                func (f *fakeSink) Insert(_ context.Context, _ []PaymentEvent) error {
                    f.calls++
                    if f.calls <= len(f.failures) {
                        return f.failures[f.calls-1]
                    }
                    return nil
                }

                type fakeDLQ struct{ sent int }

                func (f *fakeDLQ) send(_ context.Context, recs []*kgo.Record, _ error) error {
                    f.sent += len(recs)
                    return nil
                }

                func TestFlushBatch(t *testing.T) {
                    readOnly := &clickhouse.Exception{Code: 242, Message: "table is in readonly mode"}
                    badData := &clickhouse.Exception{Code: 27, Message: "cannot parse input"}
                    weird := errors.New("something new")
                    fast := RetryPolicy{Initial: time.Millisecond, Max: 2 * time.Millisecond, MaxAttempts: 3}

                    tests := []struct {
                        name      string
                        failures  []error
                        wantCalls int
                        wantDLQ   int
                        wantErr   bool
                    }{
                        {"succeeds first time", nil, 1, 0, false},
                        {"transient twice then ok", []error{readOnly, readOnly}, 3, 0, false},
                        {"transient never counts toward limit", []error{readOnly, readOnly, readOnly, readOnly, readOnly}, 6, 0, false},
                        {"unknown exhausts attempts, batch to DLQ", []error{weird, weird, weird}, 3, 2, false},
                        {"data error goes to DLQ without retry", []error{badData, badData, badData}, 3, 2, false},
                    }
                    for _, tt := range tests {
                        t.Run(tt.name, func(t *testing.T) {
                            sink := &fakeSink{failures: tt.failures}
                            dlq := &fakeDLQ{}
                            f := &flusher{sink: sink, dlq: dlq, retry: fast}
                            rb := readyBatch{
                                rows:    []PaymentEvent{{EventID: "a"}, {EventID: "b"}},
                                records: []*kgo.Record{{Offset: 1}, {Offset: 2}},
                            }
                            err := f.flushBatch(context.Background(), rb)
                            if (err != nil) != tt.wantErr {
                                t.Fatalf("flushBatch() err = %v, wantErr %v", err, tt.wantErr)
                            }
                            if sink.calls != tt.wantCalls {
                                t.Errorf("insert calls = %d, want %d", sink.calls, tt.wantCalls)
                            }
                            if dlq.sent != tt.wantDLQ {
                                t.Errorf("records sent to DLQ = %d, want %d", dlq.sent, tt.wantDLQ)
                            }
                        })
                    }
                }
                ```

                The "data error" case expects 3 insert calls for a batch of 2: the whole batch, then each
                half alone (bisection), both of which fail, so both rows go to the DLQ. If you'd rather
                assert on *which* rows went to the DLQ, make `fakeDLQ` record offsets instead of a count —
                I kept it a count so the table stays readable.
                """
            )
        ),
        u("Good, all green locally. Flight to Porto is at 06:40 tomorrow so I'm leaving early today. Back Tuesday."),
        a(
            "Have a wonderful time at the wedding. The 50k/2s config will have a few days of staging traffic behind it by the time you're back."
        ),
    ],
)

S6 = Session(
    "2026-02-18T13:30:00Z",
    [
        u(
            w(
                r"""
                Back from Porto. The wedding was lovely, and I took your advice: asked the caterer ahead
                and got a mushroom and chestnut thing that made the meat-eaters jealous.

                News at work while I was out: Joana has moved to the risk platform team, effective this
                Monday. Our new lead is Declan Moore, he joined from Adyen in January and was floating
                between teams. First impressions: very calm, likes written design docs, asks "what's the
                failure mode" about everything. I think he'll be good for this project.

                His first request: he wants refunds in ClickHouse too. Topic is refunds.events.v1, 12
                partitions, same JSON shape as payments plus refund_id and original_event_id, and amount
                is the refunded amount (positive). Do we add a second consumer deployment, or teach
                evingest to read both?
                """
            ),
            key="ku-lead-new",
        ),
        a(
            w(
                r"""
                Glad the wedding went well — and good that the mushrooms won.

                On refunds: teach evingest to read both, one consumer group, with a **batcher per
                destination table**. Reasons:

                - one deployment, one set of dashboards, one on-call story;
                - franz-go handles multiple topics in one group without ceremony;
                - the volume is small (refunds are a few percent of payments), so a separate deployment
                  would mostly sit idle.

                Refunds go into their own table rather than into `payment_events` with a type column:
                their columns differ (`refund_id`, `original_event_id`), and the analysts will join
                refunds to payments, which is cleaner with two tables.

                ```sql
                CREATE TABLE payments.refund_events ON CLUSTER kestrel
                (
                    refund_id          String,
                    original_event_id  String,
                    merchant_id        String,
                    amount_minor       Int64,
                    currency           LowCardinality(FixedString(3)),
                    event_time         DateTime64(3, 'UTC'),
                    ingested_at        DateTime64(3, 'UTC') DEFAULT now64(3),
                    kafka_partition    UInt16,
                    kafka_offset       UInt64
                )
                ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/refund_events', '{replica}')
                PARTITION BY toYYYYMM(event_time)
                ORDER BY (merchant_id, event_time, refund_id);

                CREATE TABLE payments.refund_events_all ON CLUSTER kestrel
                AS payments.refund_events
                ENGINE = Distributed(kestrel, payments, refund_events, cityHash64(merchant_id));
                ```

                Sharding by `merchant_id` on both tables means a merchant's payments and refunds live on
                the same shard, so the join between them is local to each shard.

                In the code, the poll loop routes by `r.Topic`:

                **route.go**

                ```go
                package main

                import (
                    "fmt"
                    "time"

                    json "github.com/goccy/go-json"
                    "github.com/twmb/franz-go/pkg/kgo"
                )

                // route decodes a record according to its topic and hands it to that table's batcher.
                type route struct {
                    table   string
                    batcher *Batcher
                    decode  func(r *kgo.Record) (any, error)
                }

                func newRoutes(bc BatchConfig) map[string]*route {
                    return map[string]*route{
                        "payments.events.v1": {
                            table:   "payment_events_all",
                            batcher: NewBatcher(bc),
                            decode: func(r *kgo.Record) (any, error) {
                                var w wireEvent
                                if err := json.Unmarshal(r.Value, &w); err != nil {
                                    return nil, err
                                }
                                return w.toRow(r.Partition, r.Offset)
                            },
                        },
                        "refunds.events.v1": {
                            table:   "refund_events_all",
                            batcher: NewBatcher(bc),
                            decode: func(r *kgo.Record) (any, error) {
                                var w wireRefund
                                if err := json.Unmarshal(r.Value, &w); err != nil {
                                    return nil, err
                                }
                                return w.toRow(r.Partition, r.Offset)
                            },
                        },
                    }
                }

                func (rt *route) add(r *kgo.Record, row any, now time.Time) error {
                    switch v := row.(type) {
                    case PaymentEvent, RefundEvent:
                        rt.batcher.Add(v, r, now)
                        return nil
                    default:
                        return fmt.Errorf("route %s: unexpected row type %T", rt.table, row)
                    }
                }
                ```

                The batcher becomes generic over the row (`Batcher` holding `[]any` is simplest; a
                `Batcher[T]` with generics is tidier but forces the routes into two concrete types —
                I'd take the `any` version, since the sink converts per table anyway). The flusher
                receives `readyBatch{table, rows, records}` and calls `Sink.Insert(ctx, table, rows)`.
                `KAFKA_TOPICS` becomes `payments.events.v1,refunds.events.v1`.

                One thing to settle before writing the full files: commits. With two topics in one group,
                a slow refunds batch must not hold back payments commits. `CommitRecords` commits per
                partition, so it's already independent — as long as each flushed batch commits only its
                own records, which it does.
                """
            ),
            key="s6-refunds",
        ),
        u("Give me refund.go as well so I have the full set: wire type, row type, toRow."),
        a(
            w(
                r"""
                **refund.go**

                ```go
                package main

                import (
                    "errors"
                    "fmt"
                    "time"
                )

                // wireRefund is the JSON shape on refunds.events.v1: the payment shape plus the refund's
                // own id and the id of the payment event it refunds.
                type wireRefund struct {
                    RefundID        string `json:"refund_id"`
                    OriginalEventID string `json:"original_event_id"`
                    MerchantID      string `json:"merchant_id"`
                    Amount          string `json:"amount"`
                    Currency        string `json:"currency"`
                    EventTime       string `json:"event_time"`
                }

                type RefundEvent struct {
                    RefundID        string
                    OriginalEventID string
                    MerchantID      string
                    AmountMinor     int64
                    Currency        string
                    EventTime       time.Time
                    Partition       uint16
                    Offset          uint64
                }

                var errNegativeRefund = errors.New("refund amount must be positive")

                func (w wireRefund) toRow(partition int32, offset int64) (RefundEvent, error) {
                    if w.RefundID == "" || w.OriginalEventID == "" {
                        return RefundEvent{}, fmt.Errorf("refund without refund_id or original_event_id")
                    }
                    amt, err := parseAmountMinor(w.Amount)
                    if err != nil {
                        return RefundEvent{}, err
                    }
                    if amt <= 0 {
                        return RefundEvent{}, fmt.Errorf("%w: %q", errNegativeRefund, w.Amount)
                    }
                    t, err := time.Parse(time.RFC3339Nano, w.EventTime)
                    if err != nil {
                        return RefundEvent{}, fmt.Errorf("event_time: %w", err)
                    }
                    return RefundEvent{
                        RefundID:        w.RefundID,
                        OriginalEventID: w.OriginalEventID,
                        MerchantID:      w.MerchantID,
                        AmountMinor:     amt,
                        Currency:        w.Currency,
                        EventTime:       t.UTC(),
                        Partition:       uint16(partition),
                        Offset:          uint64(offset),
                    }, nil
                }
                ```

                I made non-positive amounts an error (→ DLQ) because you said the refunded amount is
                positive; if the producer ever sends a negative, it's a contract change we want to hear
                about, not a row with the wrong sign in the analysts' sums. Note there's no `Type`
                field: every record on this topic is a refund, so the table doesn't need an event type
                column either.
                """
            )
        ),
        u(
            w(
                r"""
                OK, I'll write that up for Declan as a one-pager first, he'll want it.

                Something else though. Keiko found duplicates: 1,812 event_ids that appear twice in
                payment_events, all with event_time between 2026-02-17 14:02 and 14:09 UTC. That's exactly
                when Bilal rolled the staging nodes for a kernel update, so the ingester pods got
                rescheduled. Both copies have different kafka_offset? No — same partition, same offset,
                different ingested_at, about 40 seconds apart.
                """
            )
        ),
        a(
            w(
                r"""
                Same partition and offset, ingested 40 seconds apart: that's **duplicate rows after a
                rebalance**, and it's the at-least-once behaviour we expected on day one, finally
                showing up. The sequence:

                1. Pod A has a batch in flight for partition 7.
                2. Pod B starts (or A is being drained); the group rebalances and partition 7 is revoked
                   from A and assigned to B.
                3. A's insert succeeds, but its `CommitRecords` for partition 7 fails — A no longer owns
                   it (franz-go logs `REBALANCE_IN_PROGRESS` or `ILLEGAL_GENERATION`, and our code just
                   logs "commit failed" and moves on).
                4. B starts partition 7 from the last *committed* offset and inserts the same rows again.

                Two fixes, and I'd do both because they protect against different things:

                **A. Flush before giving partitions away.** franz-go calls `OnPartitionsRevoked` before the
                rebalance completes; if we flush and commit there, the new owner starts after our rows.
                This covers graceful rebalances (deploys, scaling, node drains):

                ```go
                kgo.OnPartitionsRevoked(func(ctx context.Context, cl *kgo.Client, revoked map[string][]int32) {
                    c.logger.Info("partitions revoked, flushing", "revoked", revoked)
                    if err := c.flushAllAndWait(ctx); err != nil {
                        c.logger.Error("flush on revoke failed", "err", err)
                        return
                    }
                    if err := cl.CommitUncommittedOffsets(ctx); err != nil {
                        c.logger.Error("commit on revoke failed", "err", err)
                    }
                }),
                kgo.OnPartitionsLost(func(ctx context.Context, cl *kgo.Client, lost map[string][]int32) {
                    c.logger.Warn("partitions lost, dropping buffered rows", "lost", lost)
                    c.dropBuffered(lost)
                }),
                kgo.BlockRebalanceOnPoll(),
                ```

                `BlockRebalanceOnPoll` makes the rebalance wait until we call `AllowRebalance()` at the top
                of the loop, so a revocation can never land in the middle of building a batch.
                `flushAllAndWait` hands off every route's batcher and waits until the flusher has drained
                the channel.

                **B. Make the table idempotent.** A crash (not a graceful revoke) can still produce
                duplicates, and nothing in Kafka can prevent that without transactions we don't have on
                the ClickHouse side. So the table should tolerate them: `ReplacingMergeTree` collapses
                rows with the same sorting key during merges. With our key
                `(merchant_id, event_time, event_id)`, two copies of an event are identical in all three
                and will collapse.

                Caveat to tell Keiko: `ReplacingMergeTree` deduplicates *eventually*, when parts merge.
                Until then, queries must deduplicate themselves (`FINAL` or an aggregate). Which brings
                us to her numbers.
                """
            ),
            key="s6-dupes",
        ),
        u(
            "Right, she needs correct numbers today, not after the migration. What query should she use for "
            "daily totals per merchant in the meantime?"
        ),
        a(
            w(
                r"""
                Deduplicate by `event_id` first, then aggregate. `argMax` picks one version of each event
                (the most recently ingested), so even if a later version ever differs, she gets a
                deterministic answer:

                ```sql
                -- Daily captured totals per merchant, one row per event_id regardless of duplicates.
                SELECT
                    merchant_id,
                    toDate(event_time) AS day,
                    currency,
                    count() AS captures,
                    sum(amount_minor) / 100 AS captured
                FROM
                (
                    SELECT
                        event_id,
                        argMax(merchant_id, ingested_at)  AS merchant_id,
                        argMax(event_type, ingested_at)   AS event_type,
                        argMax(amount_minor, ingested_at) AS amount_minor,
                        argMax(currency, ingested_at)     AS currency,
                        argMax(event_time, ingested_at)   AS event_time
                    FROM payments.payment_events_all
                    WHERE event_time >= toDateTime64('2026-02-01 00:00:00', 3, 'UTC')
                    GROUP BY event_id
                )
                WHERE event_type = 'captured'
                GROUP BY merchant_id, day, currency
                ORDER BY day, captured DESC;
                ```

                For a quick check instead of a report, `SELECT ... FROM payment_events_all FINAL` is
                simpler once the table is a `ReplacingMergeTree`, but on the current plain `MergeTree`
                `FINAL` does nothing, so she needs the `argMax` form today.

                Performance: the inner `GROUP BY event_id` over a month of data is the expensive part.
                Keep the `WHERE` on `event_time` tight, and it will push down to the partition and the
                sorting key. At staging volume it runs in a couple of seconds.
                """
            ),
            key="s6-dedup-query",
        ),
        u(
            "Sent to her. Now the migration to ReplacingMergeTree — staging first. Same ORDER BY? And what "
            "goes in the version column?"
        ),
        a(
            w(
                r"""
                Same ORDER BY: `(merchant_id, event_time, event_id)`. It's already the right dedup key,
                and changing the sorting key would mean re-sorting everything anyway.

                Version column: `ingested_at`. When two rows collide, the one with the highest
                `ingested_at` survives. For true duplicates both are identical apart from that, so the
                choice hardly matters — but it makes the merge deterministic.

                You can't `ALTER` an engine in place, so the migration is create, copy, swap:

                ```sql
                -- 1. New table with the new engine (run on the cluster)
                CREATE TABLE payments.payment_events_v2 ON CLUSTER kestrel
                AS payments.payment_events
                ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/payment_events_v2', '{replica}', ingested_at)
                PARTITION BY toYYYYMM(event_time)
                ORDER BY (merchant_id, event_time, event_id);

                -- 2. Stop evingest (scale to 0). Offsets are committed, nothing is lost.

                -- 3. Copy, per shard, on one replica of each shard (local tables, no Distributed hop)
                INSERT INTO payments.payment_events_v2 SELECT * FROM payments.payment_events;

                -- 4. Swap names atomically on every node
                EXCHANGE TABLES payments.payment_events AND payments.payment_events_v2 ON CLUSTER kestrel;

                -- 5. Scale evingest back up. The Distributed table points at 'payment_events' by name,
                --    so it now reads and writes the new engine.

                -- 6. After a few days, drop the old one
                -- DROP TABLE payments.payment_events_v2 ON CLUSTER kestrel SYNC;

                -- 7. Optional: force the existing duplicates to collapse now
                OPTIMIZE TABLE payments.payment_events ON CLUSTER kestrel PARTITION 202602 FINAL;
                ```

                Do the same for `refund_events` before it gets any data — easier to create it as
                `ReplicatedReplacingMergeTree` from the start (sorting key
                `(merchant_id, event_time, refund_id)`, version `ingested_at`).

                `EXCHANGE TABLES` needs the Atomic database engine, which is the default since 20.10;
                worth a `SELECT engine FROM system.databases WHERE name = 'payments'` first.
                """
            )
        ),
        u(
            "Atomic, checked. Doing it on staging tomorrow morning, 08:00 UTC, before traffic picks up. Declan "
            "asked for a short written plan so I'll paste yours into the doc."
        ),
        a(
            w(
                r"""
                Good timing. For the doc, a compact version with the failure mode at each step, since
                Declan will ask:

                | Step | When (UTC) | Failure mode | Rollback |
                |---|---|---|---|
                | create `payment_events_v2` | 2026-02-19 08:00 | macros missing → create fails | nothing to undo |
                | scale evingest to 0 | 08:05 | none; lag accumulates | scale back up |
                | copy per shard | 08:06–08:20 | copy slower than expected → lag grows | stop, drop v2, scale up |
                | `EXCHANGE TABLES` | ~08:20 | fails on one node → names differ across replicas | exchange again on that node |
                | scale evingest up | ~08:21 | catch-up burst of ~15 min lag | none needed; watch parts |
                | drop old table | 2026-02-23 | — | — |

                Expected user impact: Keiko and the risk dashboards see data up to 08:05 until about
                08:25, then it catches up.
                """
            )
        ),
        u("Bilal says 08:00 works for him too, he'll watch the merges while the copy runs."),
        a(
            "Good — having him watch `system.merges` during the copy is the right extra pair of eyes. "
            "The copy of a month of staging data should take minutes, not the full window."
        ),
    ],
)

S7 = Session(
    "2026-02-24T07:52:00Z",
    [
        u(
            w(
                r"""
                Production problem, need a second pair of eyes. We went live in prod last Thursday and
                it's been perfect until this morning. The risk team just said their dashboards stopped
                updating around 07:05 UTC. evingest pods are up, not crashing, but every flush is failing:

                ```
                {"time":"2026-02-24T07:04:12.118Z","level":"WARN","msg":"insert retry","table":"payment_events_all","attempt":1,"wait_ms":143,"err":"code: 242, message: Table is in readonly mode (replica path: /clickhouse/tables/02/payment_events/replicas/ch-3)"}
                {"time":"2026-02-24T07:04:12.402Z","level":"WARN","msg":"insert retry","table":"payment_events_all","attempt":2,"wait_ms":311,"err":"code: 242, message: Table is in readonly mode (replica path: /clickhouse/tables/02/payment_events/replicas/ch-3)"}
                ...
                {"time":"2026-02-24T07:51:40.906Z","level":"WARN","msg":"insert retry","table":"payment_events_all","attempt":318,"wait_ms":7402,"err":"code: 242, message: Table is in readonly mode (replica path: /clickhouse/tables/01/payment_events/replicas/ch-1)"}
                ```

                Lag on the group is 6.8 million and climbing. Bilal is on call and looking at the
                ClickHouse side. Should I restart the pods?
                """
            )
        ),
        a(
            w(
                r"""
                **Don't restart the pods.** The ingester is doing exactly what it was built to do: error
                242 `TABLE_IS_READ_ONLY` is classified as transient, so it retries the same batch forever
                with backoff, commits nothing, and back-pressure has stopped it fetching. No data is being
                lost — it's all waiting in Kafka. A restart would only add a rebalance on top.

                The problem is on the ClickHouse side, and the pattern points at **Keeper**: a replicated
                table goes read-only when its replica loses its session with ClickHouse Keeper (or
                ZooKeeper). Read-only on *both* shards (`/tables/01/` and `/tables/02/` in your log) means
                it's not one sick node — all replicas lost Keeper at once.

                What Bilal should check, in this order:

                ```sql
                -- on any ClickHouse node
                SELECT database, table, replica_name, is_readonly, is_session_expired, zookeeper_exception
                FROM system.replicas
                WHERE database = 'payments';
                ```

                ```bash
                # on each Keeper node: is it serving, and who is leader?
                echo ruok | nc ch-keeper-1 9181
                echo mntr | nc ch-keeper-1 9181 | grep -E 'zk_server_state|zk_followers|zk_synced_followers'
                # and disk
                df -h /var/lib/clickhouse-keeper
                ```

                If `ruok` answers `imok` on only one of three Keeper nodes, there's no quorum and nothing
                can write until a second one is back.

                Meanwhile, tell the risk team: data is delayed, not lost; it'll backfill automatically
                once ClickHouse accepts writes. Current freshness is roughly "last good data 07:04 UTC".
                """
            )
        ),
        u("The risk team lead is asking in #risk-ops what's happening and Bilal is heads-down. What do I write?"),
        a(
            w(
                r"""
                Keep it short, factual, and give them a time for the next update:

                > **ClickHouse data delayed since 2026-02-24 07:04 UTC.** ClickHouse is currently not
                > accepting writes; we're investigating with SRE. No data is lost — all payment and refund
                > events are safely queued in Kafka and will appear in ClickHouse automatically once
                > writes resume. Until then, dashboards show data up to 07:04 UTC. Next update at 08:20
                > UTC or sooner.

                Then actually post the next update at 08:20 even if nothing has changed — silence is
                what makes people escalate.
                """
            )
        ),
        u(
            w(
                r"""
                Bilal found it. ch-keeper-2's disk is at 100%, Keeper snapshots haven't been rotated
                since the cluster was set up. And ch-keeper-3 was mid-reboot from the kernel patch run
                he scheduled for this morning — it's back now but says it can't reach a quorum. So
                keeper-1 is alone.
                """
            )
        ),
        a(
            w(
                r"""
                That explains everything. Two of three Keeper nodes unavailable at the same moment —
                ch-keeper-3 rebooting for the patch run and ch-keeper-2 unable to write because its disk
                filled up — so **Keeper lost quorum**, every replicated table lost its session, and
                ClickHouse flipped them all to read-only. Either failure alone would have been survivable;
                together they took writes down.

                Recovery, in order:

                1. **Free space on ch-keeper-2.** Old snapshots and logs under
                   `/var/lib/clickhouse-keeper/snapshots` and `.../logs`. Keep the newest 3 snapshots and
                   the logs after the oldest kept snapshot; delete the rest. Don't delete the newest
                   snapshot or the current log — that's the state.
                2. **Restart Keeper on ch-keeper-2.** Once it's up, keeper-1 and keeper-2 form a quorum
                   (2 of 3), elect a leader, and keeper-3 joins as a follower.
                3. **Check** `echo mntr | nc ch-keeper-1 9181` shows `zk_synced_followers 2`.
                4. **ClickHouse reconnects on its own**; `is_readonly` drops to 0 within a few seconds per
                   replica. If a replica stays read-only, `SYSTEM RESTART REPLICA payments.payment_events`
                   on that node.

                Then evingest resumes by itself: the next retry succeeds, the flusher commits, the poll
                loop unblocks. You'll see a **catch-up burst** — all three pods inserting full 50,000-row
                batches as fast as they can, which we measured at about 38,500 events/s. With ~9 million
                behind, that's roughly 4 minutes of pure catch-up plus the ongoing traffic, call it
                5–10 minutes.

                Long term (for the postmortem, not now): snapshot rotation (`keep_logs_and_snapshots`
                settings / `snapshots_to_keep`), disk alerts on Keeper nodes, and never patching a Keeper
                node while another one is unhealthy.
                """
            ),
            key="s7-cause",
        ),
        u("Should I scale evingest up while we wait, so it catches up faster once writes are back?"),
        a(
            w(
                r"""
                I wouldn't. Scaling now triggers a rebalance while every pod is stuck mid-retry, and when
                writes come back, more pods means more concurrent inserts into a ClickHouse that has
                just recovered and has a merge backlog. Three pods at ~38,500 events/s will clear the
                backlog in minutes; six pods might get there a little faster and a lot more likely to hit
                the parts limits. Leave it at three and watch.
                """
            )
        ),
        u(
            "ClickHouse writable again at 08:31 UTC. Lag peaked at 9.4M. Pods are inserting flat out now. "
            "Shard 1 shows 1,380 active parts on payment_events for partition 202602 and inserts are getting "
            "slower. Should we raise parts_to_throw_insert?"
        ),
        a(
            w(
                r"""
                No — leave the limits alone. What you're seeing is ClickHouse's own back-pressure working:
                above `parts_to_delay_insert` (1,000 parts in a partition) it deliberately *slows* each
                insert to give merges time to catch up. It will only refuse inserts at 3,000, and with
                50,000-row batches you won't get there: each batch makes one part per shard (all rows
                are in the February partition), and merges combine them faster than 1.5 inserts a
                second can create them, once the initial pile is processed.

                Why 1,380 anyway? The catch-up batches arrive with `MaxWait` irrelevant — every batch is
                full — and the merge pool also had 85 minutes of nothing to do, then a spike. It'll come
                down.

                What to watch for the next 20 minutes:

                ```sql
                SELECT table, partition, count() AS active_parts
                FROM system.parts
                WHERE database = 'payments' AND active
                GROUP BY table, partition
                ORDER BY active_parts DESC;

                SELECT count() AS merges_running, sum(num_parts) AS parts_in_merges
                FROM system.merges WHERE database = 'payments';
                ```

                If `active_parts` is still climbing after 15 minutes and approaching 2,500, *then* scale
                evingest down to 2 pods to slow inserts. Raising `parts_to_throw_insert` is the wrong
                lever: it trades a clear error for a slower, worse problem.
                """
            )
        ),
        u(
            "Parts peaked at 1,610 and are coming down. Lag hit zero at 09:12 UTC. We're OK. The embarrassing "
            "part: nobody got alerted. The risk team noticed stale dashboards 40 minutes in. I want an alert "
            "on consumer lag, now, before anything else."
        ),
        a(
            w(
                r"""
                Agreed, that's the first action item. The lag metric comes from Confluent Cloud's metrics
                API via the `ccloud-exporter` you already scrape (I'm assuming the standard metric name
                `confluent_kafka_server_consumer_lag_offsets`; check yours in Prometheus). Here's the
                rules file, complete:

                **deploy/prometheus/evingest-alerts.yaml**

                ```yaml
                groups:
                  - name: evingest
                    rules:
                      - alert: IngestConsumerLagHigh
                        expr: |
                          sum by (consumer_group_id) (
                            confluent_kafka_server_consumer_lag_offsets{consumer_group_id="evingest-clickhouse"}
                          ) > 500000
                        for: 5m
                        labels:
                          severity: page
                          team: payments-data
                        annotations:
                          summary: "evingest is {{ $value | humanize }} messages behind"
                          description: >-
                            Consumer group evingest-clickhouse has had more than 500k messages of lag for
                            5 minutes. ClickHouse data is going stale; the 10 s freshness SLO is breached.
                            Check evingest logs for insert retries and system.replicas for read-only tables.
                          runbook_url: "https://wiki.kestrelpay.internal/data/runbooks/evingest#lag"

                      - alert: IngestNotInserting
                        expr: |
                          sum(rate(evingest_rows_inserted_total[5m])) == 0
                          and sum(rate(evingest_insert_errors_total[5m])) > 0
                        for: 3m
                        labels:
                          severity: page
                          team: payments-data
                        annotations:
                          summary: "evingest inserts are all failing"
                          description: "No rows acknowledged by ClickHouse for 3 minutes while inserts are being attempted."
                          runbook_url: "https://wiki.kestrelpay.internal/data/runbooks/evingest#insert-errors"
                ```

                The second rule would have fired at about 07:07 UTC this morning, three minutes after the
                first read-only error — it's the faster signal for *this* failure. The lag rule catches
                everything else, including the ingester being healthy but too slow.

                Note `evingest_insert_errors_total` currently only increments when the flusher gives up;
                move the `insertErrors.Inc()` into the `onRetry` callback so every failed attempt counts,
                otherwise the second rule never sees the retries.
                """
            ),
            key="s7-alert",
        ),
        u(
            "Merged both, deployed at 09:58 UTC. Declan wants a postmortem by Thursday. Bilal was on call, he's "
            "writing up the Keeper side, I'm doing the ingester side and the timeline."
        ),
        a(
            w(
                r"""
                Good. For Thursday, gather while it's fresh:

                - the exact time of the first error in evingest logs and the first read-only replica in
                  ClickHouse's log;
                - when the risk team noticed, and how (Slack link);
                - when the patch run started on ch-keeper-3 and the disk-full time on ch-keeper-2;
                - the lag curve from Prometheus (screenshot), peak value and time;
                - when writes resumed, when lag reached zero;
                - the active-parts peak.

                Do you have the first error time to the second?
                """
            )
        ),
        u("First TABLE_IS_READ_ONLY at 07:04:12 UTC, that's the first line I pasted."),
        a("Right — the first log line. I'll use 07:04:12 as the start of impact."),
    ],
)

S8 = Session(
    "2026-02-26T10:15:00Z",
    [
        u(
            w(
                r"""
                Postmortem day. Bilal's notes on the Keeper side:

                - ch-keeper-3 reboot started 06:58 as part of the scheduled kernel patch run
                - ch-keeper-2 disk filled at about 07:03, snapshots since cluster creation (~11 months),
                  nobody set snapshots_to_keep
                - keeper-1 alone from 07:03/07:04, no quorum
                - he freed 41 GB on keeper-2 at 08:22, restarted it 08:26, quorum back 08:27
                - ClickHouse replicas writable 08:31

                My side you know. Risk noticed at 07:44 in #risk-ops. I opened the chat with you at 07:52.
                Can you write the whole postmortem doc? Markdown, our template is: summary, impact,
                timeline, root cause, what went well, what went badly, action items with owners.
                """
            )
        ),
        a(
            w(
                r"""
                Here it is, complete. Times in UTC throughout.

                ```markdown
                # Postmortem: ClickHouse writes unavailable, payment events delayed

                **Date:** 2026-02-24
                **Authors:** payments-data (evingest), Bilal Haddad (SRE, on call)
                **Status:** draft for review by Declan Moore

                ## Summary

                From 07:04 to 08:31 UTC, ClickHouse rejected all inserts because its coordination service,
                ClickHouse Keeper, had lost quorum: ch-keeper-3 was rebooting for a scheduled kernel patch
                while ch-keeper-2's disk was full of unrotated snapshots. Every replicated table turned
                read-only. evingest retried without losing data; events accumulated in Kafka and were
                ingested by 09:12. No alert fired; the risk team noticed stale dashboards after 40 minutes.

                ## Impact

                - Payment and refund data in ClickHouse was stale for up to 2 h 08 min (07:04–09:12).
                - Risk dashboards and analytics queries showed no data after 07:04 until catch-up.
                - No data loss: all events were retained in Kafka and ingested exactly as produced
                  (duplicates from retries collapse in the ReplacingMergeTree tables).
                - The 10-second freshness SLO was breached for 128 minutes.

                ## Timeline (UTC)

                | Time | Event |
                |---|---|
                | 2026-02-24 06:58 | Scheduled kernel patch run reboots ch-keeper-3 |
                | 07:03 | ch-keeper-2 disk reaches 100%; Keeper on ch-keeper-2 stops accepting writes |
                | 07:04:12 | First `TABLE_IS_READ_ONLY` (code 242) in evingest logs; inserts retrying |
                | 07:04 | Consumer lag starts growing |
                | 07:44 | Risk team reports stale dashboards in #risk-ops |
                | 07:52 | evingest owner starts investigating; pods healthy, all inserts failing |
                | ~08:00 | Bilal identifies full disk on ch-keeper-2 and ch-keeper-3 without quorum |
                | 08:22 | 41 GB of old snapshots removed on ch-keeper-2 |
                | 08:26 | Keeper restarted on ch-keeper-2 |
                | 08:27 | Keeper quorum restored |
                | 08:31 | ClickHouse replicas writable; evingest inserts succeed |
                | ~08:31 | Consumer lag peaks at 9.4M messages |
                | ~08:45 | Active parts on shard 1 peak at 1,610 (insert delay active, no rejects) |
                | 09:12 | Consumer lag back to zero |
                | 09:58 | Lag and insert-failure alerts deployed |

                ## Root cause

                Keeper lost quorum because two of three nodes were unavailable at once. ch-keeper-2's
                disk filled up because Keeper snapshots and logs were never rotated
                (`snapshots_to_keep` unset since the cluster was built, ~11 months ago). The kernel patch
                automation rebooted ch-keeper-3 without checking the health of the rest of the ensemble.

                ## What went well

                - evingest classified the error as transient, retried without committing offsets, and
                  stopped fetching: no data loss, no crash loop, no operator action needed on the
                  ingester.
                - Recovery was fully automatic once Keeper was healthy; catch-up of 9.4M messages took
                  41 minutes, during ongoing traffic, without hitting `parts_to_throw_insert`.

                ## What went badly

                - No alert on consumer lag or insert failures; detection came from a user after 40 minutes.
                - No disk alert on the Keeper nodes.
                - Patch automation has no guard for quorum-based services.

                ## Action items

                | # | Action | Owner | Due |
                |---|---|---|---|
                | 1 | Alerts on consumer lag and on inserts all failing (done 2026-02-24 09:58) | evingest | done |
                | 2 | Set `snapshots_to_keep` / log rotation on all Keeper nodes | Bilal Haddad | 2026-03-03 |
                | 3 | Disk usage alert (>80%) on Keeper and ClickHouse nodes | Bilal Haddad | 2026-03-03 |
                | 4 | Patch run checks Keeper quorum and processes one Keeper node at a time | SRE | 2026-03-13 |
                | 5 | Alert when any ClickHouse replica is read-only | evingest | 2026-03-03 |
                | 6 | Runbook section for "inserts failing, read-only replicas" | evingest | 2026-03-06 |
                ```

                Two judgement calls I made that you may want to change: I called the duration "up to
                2 h 08 min" stale (until lag reached zero), not "87 minutes" (until writes resumed) —
                from a data consumer's point of view the data wasn't fresh until catch-up finished. And
                I kept names out of "what went badly" — blameless by default.
                """
            ),
            key="s8-postmortem",
        ),
        u(
            "That's great, barely touching it. Declan also asked why we only alert on our side. Action item 5: "
            "an alert when any ClickHouse replica goes read-only. Our ClickHouse exposes the built-in "
            "Prometheus endpoint on port 9363."
        ),
        a(
            w(
                r"""
                ClickHouse's built-in endpoint exports every `system.metrics` value as
                `ClickHouseMetrics_<Name>`; the one we need is `ReadonlyReplica` — the number of
                replicated tables currently read-only on that server. Here's the rules file again with the
                new group added, complete:

                **deploy/prometheus/evingest-alerts.yaml**

                ```yaml
                groups:
                  - name: evingest
                    rules:
                      - alert: IngestConsumerLagHigh
                        expr: |
                          sum by (consumer_group_id) (
                            confluent_kafka_server_consumer_lag_offsets{consumer_group_id="evingest-clickhouse"}
                          ) > 500000
                        for: 5m
                        labels:
                          severity: page
                          team: payments-data
                        annotations:
                          summary: "evingest is {{ $value | humanize }} messages behind"
                          runbook_url: "https://wiki.kestrelpay.internal/data/runbooks/evingest#lag"

                      - alert: IngestNotInserting
                        expr: |
                          sum(rate(evingest_rows_inserted_total[5m])) == 0
                          and sum(rate(evingest_insert_errors_total[5m])) > 0
                        for: 3m
                        labels:
                          severity: page
                          team: payments-data
                        annotations:
                          summary: "evingest inserts are all failing"
                          runbook_url: "https://wiki.kestrelpay.internal/data/runbooks/evingest#insert-errors"

                  - name: clickhouse
                    rules:
                      - alert: ClickHouseReplicaReadOnly
                        expr: max by (instance) (ClickHouseMetrics_ReadonlyReplica) > 0
                        for: 1m
                        labels:
                          severity: page
                          team: sre
                        annotations:
                          summary: "{{ $labels.instance }} has {{ $value }} read-only replicated tables"
                          description: >-
                            Replicated tables on this server cannot accept inserts, usually because the
                            server lost its Keeper session. Check Keeper quorum (echo mntr | nc <keeper> 9181)
                            and disk space on the Keeper nodes.
                          runbook_url: "https://wiki.kestrelpay.internal/data/runbooks/clickhouse#readonly"

                      - alert: ClickHouseKeeperDiskFilling
                        expr: |
                          (1 - node_filesystem_avail_bytes{mountpoint="/var/lib/clickhouse-keeper"}
                             / node_filesystem_size_bytes{mountpoint="/var/lib/clickhouse-keeper"}) > 0.8
                        for: 10m
                        labels:
                          severity: ticket
                          team: sre
                        annotations:
                          summary: "Keeper disk on {{ $labels.instance }} above 80%"
                ```

                `ClickHouseReplicaReadOnly` goes to SRE (`team: sre`), since it's their system and the
                fix is on their side; evingest's rules stay with your team. I added the disk alert for
                Bilal's action item 3 in the same file so he can lift it — move it to the SRE repo if
                that's where their rules live. Make sure the ClickHouse scrape job targets port 9363 on
                all four nodes.

                Commit message:

                ```
                feat: alert on read-only clickhouse replicas and keeper disk

                Adds ClickHouseReplicaReadOnly (any replicated table read-only for
                1m, pages SRE) and a ticket-level alert for Keeper disk above 80%.
                Follow-up to the 2026-02-24 outage.

                Refs: ING-58
                ```
                """
            ),
            key="s8-alert2",
        ),
        u(
            w(
                r"""
                Thanks. Reviewer change, by the way: Priya's parental leave starts Monday, so from now
                on Tomasz Wójcik reviews my evingest PRs. He's more infra than application, knows
                ClickHouse internals better than anyone here, so expect questions about parts and merges
                rather than about test names.
                """
            ),
            key="ku-rev-new",
        ),
        a(
            w(
                r"""
                Good to know — and congratulations to Priya. For Tomasz, it's worth putting the ClickHouse
                facts up front in each PR description so he can review what he's strongest at. A template
                you can keep in `.github/pull_request_template.md`:

                ```markdown
                ## What

                ## Why

                ## ClickHouse impact
                - Tables touched:
                - Inserts per second (before → after):
                - Rows per insert (before → after):
                - Partitions touched per insert:
                - Schema change? (ALTER / new table / none):

                ## Failure mode
                What happens if this misbehaves in production, and how we'd notice.

                ## Tests
                ```

                The "Failure mode" section is also for Declan, who'll ask anyway.
                """
            )
        ),
        u(
            "Ha, Declan will love that section. Tomasz's first question on the alert PR: why 500k for the lag "
            "threshold? Honest answer is I picked a round number."
        ),
        a(
            w(
                r"""
                It's a defensible round number, but we can ground it. In production you average about
                3,000 events/s across both topics, peaking near 9,000:

                | Traffic | 500k messages of lag means |
                |---|---|
                | 3,000 events/s (normal) | ~2 min 47 s behind |
                | 9,000 events/s (peak) | ~56 s behind |

                Against a 10-second SLO, both are already well past breach — so 500k is a *page-worthy*
                threshold, not an early warning. The "for: 5m" adds another five minutes. That's why the
                `IngestNotInserting` rule exists: it catches total failure within three minutes, which
                the lag rule can't.

                If Tomasz wants something tighter, lag in *time* rather than messages is better than a
                lower message count: alert on
                `histogram_quantile(0.99, sum by (le) (rate(evingest_end_to_end_seconds_bucket[5m]))) > 10`
                for 10 minutes, as a ticket-level alert. That's literally the SLO.
                """
            )
        ),
        u("Sent him that. He approved with 'ok, good'. That's a long review from Tomasz, apparently."),
        a("From a reviewer who prefers talking about merges, that's practically an essay."),
        u(
            "Last thing today: Declan needs three sentences about the outage for Friday's all-hands. Not "
            "technical, most of the company are sales and support."
        ),
        a(
            w(
                r"""
                > On Tuesday morning, the database our analytics and risk dashboards read from stopped
                > accepting new data for about an hour and a half, because two of its three coordinating
                > servers were down at the same time — one for routine maintenance, one because its disk
                > was full. No payment was affected and no data was lost: everything waited in a queue
                > and was filled in automatically once the database recovered, fully caught up by 09:12 UTC.
                > We've added alerts that would have told us within three minutes instead of forty, and
                > SRE is fixing the disk clean-up and the maintenance process so the two can't coincide
                > again.

                That's three sentences, if long ones. If Declan wants it shorter, drop the second half of
                the first sentence.
                """
            )
        ),
    ],
)

S9 = Session(
    "2026-03-05T15:00:00Z",
    [
        u(
            w(
                r"""
                Schema change incoming. Rafael's team (they own the payments API, i.e. the producer) is
                shipping v2 of the payment event on 2026-03-10. Same topic. New fields:

                - `schema_version`: 2 (v1 events don't have the field at all)
                - `payment_method`: "card", "ideal", "sepa_dd", "bancontact"
                - `fee_amount`: string, same format as amount, our fee on that event
                - `card_scheme`: "visa", "mastercard", "amex" — only when payment_method is card,
                  absent otherwise

                They'll flip producers over gradually over a day, so both versions will be on the topic
                at the same time. Keiko and the risk team want the new columns as soon as possible.
                How do I roll this out without breaking anything?
                """
            )
        ),
        a(
            w(
                r"""
                This is the friendly kind of schema change: purely additive. The rollout rule for
                additive changes is **consumers and storage first, producers last**, so that at every
                moment everything on the topic can be read and stored:

                1. **ClickHouse columns first** (any day before 2026-03-10). New columns with defaults,
                   so existing rows and v1 events get sensible values. `ADD COLUMN` on a MergeTree is a
                   metadata-only operation — instant, no rewrite.
                2. **evingest that reads both versions** (deploy before 2026-03-10). A tolerant reader:
                   missing fields take defaults, so it handles v1 and v2 identically.
                3. **Producers flip to v2** (Rafael's rollout). Nothing to coordinate on our side.
                4. **Later**, when v1 is gone from the topic (7 days of retention after the last v1 event),
                   we can make the columns non-defaulted if we want to. Probably not worth it.

                The decoder change, complete **event.go**:

                ```go
                package main

                import (
                    "errors"
                    "fmt"
                    "strings"
                    "time"
                )

                // wireEvent is the JSON shape on payments.events.v1. Fields added in schema
                // version 2 are optional so v1 events decode unchanged.
                type wireEvent struct {
                    SchemaVersion int     `json:"schema_version"`
                    EventID       string  `json:"event_id"`
                    MerchantID    string  `json:"merchant_id"`
                    Type          string  `json:"type"`
                    Amount        string  `json:"amount"`
                    Currency      string  `json:"currency"`
                    EventTime     string  `json:"event_time"`
                    PaymentMethod string  `json:"payment_method"`
                    FeeAmount     *string `json:"fee_amount"`
                    CardScheme    *string `json:"card_scheme"`
                }

                type PaymentEvent struct {
                    EventID       string
                    MerchantID    string
                    EventType     string
                    AmountMinor   int64
                    Currency      string
                    EventTime     time.Time
                    Partition     uint16
                    Offset        uint64
                    SchemaVersion uint8
                    PaymentMethod string
                    FeeMinor      *int64
                    CardScheme    *string
                }

                var errAmount = errors.New("invalid amount")

                func parseAmountMinor(s string) (int64, error) {
                    neg := strings.HasPrefix(s, "-")
                    if neg {
                        s = s[1:]
                    }
                    whole, frac, _ := strings.Cut(s, ".")
                    if whole == "" || len(frac) > 2 {
                        return 0, fmt.Errorf("%w: %q", errAmount, s)
                    }
                    for len(frac) < 2 {
                        frac += "0"
                    }
                    var n int64
                    for _, c := range whole + frac {
                        if c < '0' || c > '9' {
                            return 0, fmt.Errorf("%w: %q", errAmount, s)
                        }
                        n = n*10 + int64(c-'0')
                    }
                    if neg {
                        n = -n
                    }
                    return n, nil
                }

                func (w wireEvent) toRow(partition int32, offset int64) (PaymentEvent, error) {
                    amt, err := parseAmountMinor(w.Amount)
                    if err != nil {
                        return PaymentEvent{}, err
                    }
                    t, err := time.Parse(time.RFC3339Nano, w.EventTime)
                    if err != nil {
                        return PaymentEvent{}, fmt.Errorf("event_time: %w", err)
                    }
                    version := w.SchemaVersion
                    if version == 0 {
                        version = 1
                    }
                    row := PaymentEvent{
                        EventID:       w.EventID,
                        MerchantID:    w.MerchantID,
                        EventType:     w.Type,
                        AmountMinor:   amt,
                        Currency:      w.Currency,
                        EventTime:     t.UTC(),
                        Partition:     uint16(partition),
                        Offset:        uint64(offset),
                        SchemaVersion: uint8(version),
                        PaymentMethod: w.PaymentMethod,
                        CardScheme:    w.CardScheme,
                    }
                    if w.FeeAmount != nil {
                        fee, err := parseAmountMinor(*w.FeeAmount)
                        if err != nil {
                            return PaymentEvent{}, fmt.Errorf("fee_amount: %w", err)
                        }
                        row.FeeMinor = &fee
                    }
                    return row, nil
                }
                ```

                `FeeAmount` and `CardScheme` are pointers so "absent" and "empty" stay distinguishable and
                map to `NULL` in ClickHouse. `PaymentMethod` is a plain string: absent becomes `""`, which
                we store as-is and the analysts can read as "unknown (v1)".

                Important: `Sink.Insert` appends values positionally, so the new columns must be appended
                in the same order as the table's columns, which means the `ALTER` has to add them
                `AFTER kafka_offset` in exactly this order — or better, switch the insert to name its
                columns explicitly. I'd do the latter; it makes the sink immune to column order.
                """
            ),
            key="s9-schema",
        ),
        u(
            "Also, heads up, platform doubled payments.events.v1 to 48 partitions last night to get ready for "
            "the Easter campaign. Nobody asked us, naturally. Anything I need to do?",
            key="ku-part-new",
        ),
        a(
            w(
                r"""
                Mostly nothing, a couple of things to know:

                - **Picking up the new partitions.** franz-go refreshes metadata periodically (default
                  `MetadataMaxAge` is 5 minutes), sees 48 partitions, and the group rebalances to assign
                  them. Our revoke handler flushes and commits first, so this rebalance is clean. If you
                  see partitions 24–47 in the assignment logs, it worked.
                - **Where new records start.** For partitions the group has never committed on, franz-go
                  starts at the *reset offset* — the default is the earliest offset, which is what we want
                  (the new partitions only contain new data anyway).
                - **Key → partition mapping changed.** Producers key by merchant, and the hash is now
                  modulo 48, so about half of the merchants moved partition. For a short window, a
                  merchant's older events may still be unconsumed on the old partition while newer ones
                  arrive on the new one. We don't rely on per-merchant ordering — each event is a row,
                  and ReplacingMergeTree doesn't care about arrival order — so this doesn't affect us.
                  Worth mentioning to anyone who *does* rely on ordering from this topic.
                - **Scaling headroom.** With 24 partitions, more than 24 pods would sit idle. With 48 we
                  can go up to 48, though ClickHouse inserts are the real ceiling, not pod count.
                """
            )
        ),
        u(
            "Good. Give me the ALTERs. LowCardinality for payment_method? And should card_scheme be Nullable "
            "or empty string? Tomasz has opinions about Nullable."
        ),
        a(
            w(
                r"""
                Tomasz's opinion is probably "avoid Nullable", and he's mostly right: `Nullable` adds a
                separate null-mask column per column and makes some functions slower. For
                `card_scheme`, an empty string carries the same meaning ("not a card payment") at lower
                cost. For `fee_minor` I'd keep `Nullable`, because 0 is a real fee (some merchants have
                zero-fee plans) and "unknown, v1 event" is different from "free".

                ```sql
                ALTER TABLE payments.payment_events ON CLUSTER kestrel
                    ADD COLUMN IF NOT EXISTS schema_version UInt8 DEFAULT 1 AFTER kafka_offset,
                    ADD COLUMN IF NOT EXISTS payment_method LowCardinality(String) DEFAULT '' AFTER schema_version,
                    ADD COLUMN IF NOT EXISTS fee_minor Nullable(Int64) AFTER payment_method,
                    ADD COLUMN IF NOT EXISTS card_scheme LowCardinality(String) DEFAULT '' AFTER fee_minor;

                -- the Distributed table needs the same columns (no data of its own)
                ALTER TABLE payments.payment_events_all ON CLUSTER kestrel
                    ADD COLUMN IF NOT EXISTS schema_version UInt8 DEFAULT 1 AFTER kafka_offset,
                    ADD COLUMN IF NOT EXISTS payment_method LowCardinality(String) DEFAULT '' AFTER schema_version,
                    ADD COLUMN IF NOT EXISTS fee_minor Nullable(Int64) AFTER payment_method,
                    ADD COLUMN IF NOT EXISTS card_scheme LowCardinality(String) DEFAULT '' AFTER fee_minor;
                ```

                The sorting key stays `(merchant_id, event_time, event_id)`; nothing in this change
                needs to be in it. Adding columns to the sorting key of an existing table is only
                possible for brand-new columns and isn't worth it here — the analysts filter on
                `payment_method` after `merchant_id`, and `LowCardinality` makes that scan cheap.

                With `card_scheme` as a non-nullable string, change `CardScheme *string` in the row
                struct to a plain `string` (empty when absent) and keep the pointer only on the wire
                struct. And the sink with named columns, **sink.go**:

                ```go
                package main

                import (
                    "context"
                    "fmt"

                    "github.com/ClickHouse/clickhouse-go/v2"
                    "github.com/ClickHouse/clickhouse-go/v2/lib/driver"
                )

                const paymentColumns = "event_id, merchant_id, event_type, amount_minor, currency, event_time, " +
                    "kafka_partition, kafka_offset, schema_version, payment_method, fee_minor, card_scheme"

                type Sink struct {
                    conn driver.Conn
                }

                func NewSink(ctx context.Context, cfg ClickHouseConfig) (*Sink, error) {
                    conn, err := clickhouse.Open(&clickhouse.Options{
                        Addr: cfg.Addrs,
                        Auth: clickhouse.Auth{Database: cfg.Database, Username: cfg.User, Password: cfg.Password},
                        Settings: clickhouse.Settings{
                            "insert_distributed_sync": 0,
                        },
                    })
                    if err != nil {
                        return nil, err
                    }
                    if err := conn.Ping(ctx); err != nil {
                        return nil, fmt.Errorf("ping: %w", err)
                    }
                    return &Sink{conn: conn}, nil
                }

                func (s *Sink) InsertPayments(ctx context.Context, table string, rows []PaymentEvent) error {
                    batch, err := s.conn.PrepareBatch(ctx, fmt.Sprintf("INSERT INTO %s (%s)", table, paymentColumns))
                    if err != nil {
                        return err
                    }
                    for _, ev := range rows {
                        if err := batch.Append(
                            ev.EventID, ev.MerchantID, ev.EventType, ev.AmountMinor, ev.Currency, ev.EventTime,
                            ev.Partition, ev.Offset, ev.SchemaVersion, ev.PaymentMethod, ev.FeeMinor, ev.CardScheme,
                        ); err != nil {
                            return err
                        }
                    }
                    return batch.Send()
                }

                func (s *Sink) Close() error { return s.conn.Close() }
                ```

                `InsertRefunds` follows the same pattern with its own column list. Deploy order: ALTERs
                (today), then this evingest build (tomorrow), both before Rafael's 2026-03-10 start.
                """
            )
        ),
        u("Tests for the v1/v2 decoding, please, same style as the batcher ones."),
        a(
            w(
                r"""
                **event_test.go**

                ```go
                package main

                import (
                    "testing"

                    json "github.com/goccy/go-json"
                )

                func TestToRowVersions(t *testing.T) {
                    tests := []struct {
                        name       string
                        in         string
                        wantVer    uint8
                        wantMethod string
                        wantFee    *int64
                        wantScheme string
                        wantErr    bool
                    }{
                        {
                            name:    "v1 has no new fields",
                            in:      `{"event_id":"e1","merchant_id":"m1","type":"captured","amount":"12.50","currency":"EUR","event_time":"2026-03-05T14:00:00Z"}`,
                            wantVer: 1,
                        },
                        {
                            name:       "v2 card payment",
                            in:         `{"schema_version":2,"event_id":"e2","merchant_id":"m1","type":"captured","amount":"12.50","currency":"EUR","event_time":"2026-03-05T14:00:00Z","payment_method":"card","fee_amount":"0.19","card_scheme":"visa"}`,
                            wantVer:    2,
                            wantMethod: "card",
                            wantFee:    ptr(int64(19)),
                            wantScheme: "visa",
                        },
                        {
                            name:       "v2 ideal, no scheme, zero fee",
                            in:         `{"schema_version":2,"event_id":"e3","merchant_id":"m2","type":"captured","amount":"40","currency":"EUR","event_time":"2026-03-05T14:00:00Z","payment_method":"ideal","fee_amount":"0.00"}`,
                            wantVer:    2,
                            wantMethod: "ideal",
                            wantFee:    ptr(int64(0)),
                        },
                        {
                            name:    "v2 bad fee is an error",
                            in:      `{"schema_version":2,"event_id":"e4","merchant_id":"m2","type":"captured","amount":"40","currency":"EUR","event_time":"2026-03-05T14:00:00Z","payment_method":"card","fee_amount":"0,19"}`,
                            wantErr: true,
                        },
                    }
                    for _, tt := range tests {
                        t.Run(tt.name, func(t *testing.T) {
                            var w wireEvent
                            if err := json.Unmarshal([]byte(tt.in), &w); err != nil {
                                t.Fatalf("unmarshal: %v", err)
                            }
                            got, err := w.toRow(0, 0)
                            if (err != nil) != tt.wantErr {
                                t.Fatalf("toRow() err = %v, wantErr %v", err, tt.wantErr)
                            }
                            if tt.wantErr {
                                return
                            }
                            if got.SchemaVersion != tt.wantVer {
                                t.Errorf("SchemaVersion = %d, want %d", got.SchemaVersion, tt.wantVer)
                            }
                            if got.PaymentMethod != tt.wantMethod {
                                t.Errorf("PaymentMethod = %q, want %q", got.PaymentMethod, tt.wantMethod)
                            }
                            if !equalPtr(got.FeeMinor, tt.wantFee) {
                                t.Errorf("FeeMinor = %v, want %v", deref(got.FeeMinor), deref(tt.wantFee))
                            }
                            if got.CardScheme != tt.wantScheme {
                                t.Errorf("CardScheme = %q, want %q", got.CardScheme, tt.wantScheme)
                            }
                        })
                    }
                }

                func ptr[T any](v T) *T { return &v }

                func equalPtr(a, b *int64) bool {
                    if a == nil || b == nil {
                        return a == b
                    }
                    return *a == *b
                }

                func deref(p *int64) any {
                    if p == nil {
                        return nil
                    }
                    return *p
                }
                ```

                The "bad fee" case uses a comma decimal on purpose — if any producer is configured with a
                European locale, that's the first thing that will go wrong, and it should land in the DLQ
                rather than in the table.
                """
            )
        ),
        u(
            w(
                r"""
                Deployed the new build to staging before the ALTERs had finished replicating to shard 2
                (my fault), then fixed that, and now every flush fails with this:

                ```
                {"time":"2026-03-06T09:41:27.553Z","level":"WARN","msg":"insert retry","table":"payment_events_all","attempt":3,"wait_ms":612,"err":"clickhouse [Append]: converting *string to LowCardinality(String) is unsupported"}
                ```

                It's retrying forever because it isn't a ClickHouse exception so it's "unknown"... no
                wait, it gives up after 8 and sends the batch to the DLQ. 14 batches in the DLQ already.
                """
            )
        ),
        a(
            w(
                r"""
                That one is mine: I told you to make `CardScheme` a plain string in the row struct once
                we chose a non-nullable column, but the `event.go` I'd given you still had
                `CardScheme *string` on `PaymentEvent`. The driver refuses to put a pointer into a
                non-nullable `LowCardinality(String)`. It's a client-side error, so `classify` sees no
                `*clickhouse.Exception`, calls it unknown, and after 8 attempts the batch goes to the
                DLQ. That's the safety net working, but it's the wrong class: an `Append` conversion
                error will fail identically on every retry, so it should count as a data error
                (bisect, DLQ the bad rows) rather than burning 8 retries on the whole batch. Worth a
                follow-up.

                Here's the corrected **event.go**, complete:

                ```go
                package main

                import (
                    "errors"
                    "fmt"
                    "strings"
                    "time"
                )

                // wireEvent is the JSON shape on payments.events.v1. Fields added in schema
                // version 2 are optional so v1 events decode unchanged.
                type wireEvent struct {
                    SchemaVersion int     `json:"schema_version"`
                    EventID       string  `json:"event_id"`
                    MerchantID    string  `json:"merchant_id"`
                    Type          string  `json:"type"`
                    Amount        string  `json:"amount"`
                    Currency      string  `json:"currency"`
                    EventTime     string  `json:"event_time"`
                    PaymentMethod string  `json:"payment_method"`
                    FeeAmount     *string `json:"fee_amount"`
                    CardScheme    *string `json:"card_scheme"`
                }

                type PaymentEvent struct {
                    EventID       string
                    MerchantID    string
                    EventType     string
                    AmountMinor   int64
                    Currency      string
                    EventTime     time.Time
                    Partition     uint16
                    Offset        uint64
                    SchemaVersion uint8
                    PaymentMethod string
                    FeeMinor      *int64 // Nullable(Int64): nil for v1 events
                    CardScheme    string // '' when not a card payment or v1
                }

                var errAmount = errors.New("invalid amount")

                func parseAmountMinor(s string) (int64, error) {
                    neg := strings.HasPrefix(s, "-")
                    if neg {
                        s = s[1:]
                    }
                    whole, frac, _ := strings.Cut(s, ".")
                    if whole == "" || len(frac) > 2 {
                        return 0, fmt.Errorf("%w: %q", errAmount, s)
                    }
                    for len(frac) < 2 {
                        frac += "0"
                    }
                    var n int64
                    for _, c := range whole + frac {
                        if c < '0' || c > '9' {
                            return 0, fmt.Errorf("%w: %q", errAmount, s)
                        }
                        n = n*10 + int64(c-'0')
                    }
                    if neg {
                        n = -n
                    }
                    return n, nil
                }

                func (w wireEvent) toRow(partition int32, offset int64) (PaymentEvent, error) {
                    amt, err := parseAmountMinor(w.Amount)
                    if err != nil {
                        return PaymentEvent{}, err
                    }
                    t, err := time.Parse(time.RFC3339Nano, w.EventTime)
                    if err != nil {
                        return PaymentEvent{}, fmt.Errorf("event_time: %w", err)
                    }
                    version := w.SchemaVersion
                    if version == 0 {
                        version = 1
                    }
                    row := PaymentEvent{
                        EventID:       w.EventID,
                        MerchantID:    w.MerchantID,
                        EventType:     w.Type,
                        AmountMinor:   amt,
                        Currency:      w.Currency,
                        EventTime:     t.UTC(),
                        Partition:     uint16(partition),
                        Offset:        uint64(offset),
                        SchemaVersion: uint8(version),
                        PaymentMethod: w.PaymentMethod,
                    }
                    if w.CardScheme != nil {
                        row.CardScheme = *w.CardScheme
                    }
                    if w.FeeAmount != nil {
                        fee, err := parseAmountMinor(*w.FeeAmount)
                        if err != nil {
                            return PaymentEvent{}, fmt.Errorf("fee_amount: %w", err)
                        }
                        row.FeeMinor = &fee
                    }
                    return row, nil
                }
                ```

                The test file I gave you already compares `got.CardScheme` with a string, so it would
                not even have compiled against the old struct — which suggests the build you deployed
                was made before you added the tests. Worth a `make test` in the image build.

                For the 14 DLQ batches: they're valid events, nothing to fix in the data. Once the new
                build is out, replay them (we'll need a small replay tool; for now they're safe for 14
                days).
                """
            )
        ),
        u(
            w(
                r"""
                All green. ALTERs done on staging and prod, build goes out tomorrow morning.

                Weekend plans: driving down to Ghent with two old friends from uni, there's a bouldering
                gym there we've wanted to try for ages, and a vegetarian place near the Korenmarkt one of
                them swears by. Laptop stays home.
                """
            ),
            key="s9-ghent",
        ),
        a(
            "That sounds like exactly the right weekend after the month you've had. Enjoy Ghent — and leaving "
            "the laptop at home is the best deployment decision of the week."
        ),
    ],
)

S10 = Session(
    "2026-03-16T11:25:00Z",
    [
        u(
            w(
                r"""
                Housekeeping week. Dependabot has a stack of PRs open and Tomasz wants them in before we
                add anything else. The plan: Go 1.22 → 1.23, franz-go v1.16.1 → v1.18.1, clickhouse-go
                from v2.23.2 to v2.30.0, goccy/go-json to v0.10.3, prometheus client to v1.20.5. I'd rather
                do it in one PR with one staging soak than five PRs. Give me the go.mod and anything I
                should watch for.
                """
            ),
            key="ku-chgo-new",
        ),
        a(
            w(
                r"""
                One PR is fine for this set, as long as the soak is long enough to see a rebalance and a
                ClickHouse restart. Complete **go.mod** (run `go mod tidy` after; it will fill in the
                indirect requirements and `go.sum`):

                ```
                module github.com/kestrelpay/evingest

                go 1.23

                toolchain go1.23.7

                require (
                    github.com/ClickHouse/clickhouse-go/v2 v2.30.0
                    github.com/goccy/go-json v0.10.3
                    github.com/prometheus/client_golang v1.20.5
                    github.com/twmb/franz-go v1.18.1
                )
                ```

                The commands, in order:

                ```bash
                go get go@1.23 toolchain@go1.23.7
                go get github.com/ClickHouse/clickhouse-go/v2@v2.30.0 \
                       github.com/twmb/franz-go@v1.18.1 \
                       github.com/goccy/go-json@v0.10.3 \
                       github.com/prometheus/client_golang@v1.20.5
                go mod tidy
                make test
                make lint
                ```

                Update the Dockerfile's builder image to `golang:1.23` at the same time, or the build in
                CI will try to download the toolchain on every run.

                What to watch for:

                - **clickhouse-go** — seven minor versions is a big jump. Read the changelog between
                  v2.23 and v2.30 for anything touching `PrepareBatch`, `Append` of pointer types (we use
                  `*int64` for the fee now), and `Exception` codes, since `classify` depends on
                  `*clickhouse.Exception`. The flusher tests cover the classification; run them against
                  the new version before anything else.
                - **franz-go** — check the notes for changes to rebalance callbacks and
                  `BlockRebalanceOnPoll`; our duplicate fix depends on their exact semantics.
                - **prometheus client** — should be uneventful; metric names don't change.
                - **Soak test** — at least 24 hours on staging, and during it: kill a pod (rebalance),
                  restart one ClickHouse replica (`TABLE_IS_READ_ONLY` retry path), and push one bad
                  event (DLQ path). Those three paths are what the libraries we're bumping implement.

                Commit message:

                ```
                chore: bump go to 1.23 and update kafka, clickhouse deps

                franz-go v1.18.1, clickhouse-go v2.30.0, goccy/go-json v0.10.3,
                prometheus client_golang v1.20.5. Builder image golang:1.23.
                Soaked 24h on staging with a pod kill, a replica restart and a
                poison event; no regressions.

                Refs: ING-71
                ```

                (Adjust the last paragraph once the soak has actually happened.)
                """
            )
        ),
        u(
            w(
                r"""
                After the bump, golangci-lint lights up all over my older test files:

                ```
                internal/legacy/replay_test.go:41:3: The copy of the 'for' variable "tt" can be deleted (Go 1.22+) (copyloopvar)
                ```

                Do I just delete the `tt := tt` lines? And can you give me a .golangci.yml while you're at
                it, we've been running with defaults.
                """
            )
        ),
        a(
            w(
                r"""
                Yes, delete them. Since Go 1.22 each loop iteration gets its own copy of the loop
                variable, so `tt := tt` before `t.Run(..., func...)` with `t.Parallel()` is no longer
                needed; it was the workaround for the old shared-variable bug. The linter only fires now
                because `go 1.23` in go.mod tells it the new semantics apply. `gofmt -r 'tt := tt -> '`
                won't do it; a plain search for `tt := tt` and delete is quickest.

                **.golangci.yml**

                ```yaml
                run:
                  timeout: 5m
                  go: "1.23"

                linters:
                  disable-all: true
                  enable:
                    - errcheck
                    - govet
                    - staticcheck
                    - unused
                    - ineffassign
                    - gosimple
                    - copyloopvar
                    - errorlint
                    - bodyclose
                    - contextcheck
                    - gocritic
                    - misspell
                    - sloglint
                    - unconvert

                linters-settings:
                  sloglint:
                    kv-only: true
                    key-naming-case: snake
                  errorlint:
                    errorf: true
                  gocritic:
                    disabled-checks:
                      - ifElseChain

                issues:
                  exclude-rules:
                    - path: _test\.go
                      linters:
                        - errcheck
                ```

                `sloglint` with `kv-only` and `key-naming-case: snake` enforces what the code already does
                (`"took_ms"`, `"source_topic"`), so slog keys stay consistent as more people touch the
                repo. `errorlint` catches `err == context.DeadlineExceeded` comparisons — there's one in
                the poll loop from the early version that should be `errors.Is`.
                """
            )
        ),
        u(
            "Soak done, all three failure paths behaved, merged Friday. Next: chargebacks. Declan confirmed "
            "the topic chargebacks.events.v1, 6 partitions. Fields: chargeback_id, original_event_id, "
            "merchant_id, reason_code, amount, currency, status (opened, won, lost), event_time. A chargeback "
            "gets one event per status change, so the same chargeback_id shows up two or three times.",
            key="s10-chargebacks",
        ),
        a(
            w(
                r"""
                Chargebacks are different from payments and refunds in one important way: they're
                *stateful*. A chargeback is opened, then won or lost, and what analysts almost always
                want is the **current status**. So here ReplacingMergeTree does real work rather than just
                mopping up duplicates: the sorting key identifies the chargeback, and the version column
                is the event time, so the latest status wins.

                ```sql
                CREATE TABLE payments.chargeback_events ON CLUSTER kestrel
                (
                    chargeback_id      String,
                    original_event_id  String,
                    merchant_id        String,
                    reason_code        LowCardinality(String),
                    amount_minor       Int64,
                    currency           LowCardinality(FixedString(3)),
                    status             LowCardinality(String),
                    event_time         DateTime64(3, 'UTC'),
                    ingested_at        DateTime64(3, 'UTC') DEFAULT now64(3),
                    kafka_partition    UInt16,
                    kafka_offset       UInt64
                )
                ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/chargeback_events', '{replica}', event_time)
                PARTITION BY toYYYYMM(event_time)
                ORDER BY (merchant_id, chargeback_id);

                CREATE TABLE payments.chargeback_events_all ON CLUSTER kestrel
                AS payments.chargeback_events
                ENGINE = Distributed(kestrel, payments, chargeback_events, cityHash64(merchant_id));
                ```

                Two consequences to tell Keiko:

                1. `event_time` isn't in the sorting key, so a chargeback's rows collapse to one
                   regardless of when each status arrived.
                2. **Caveat with monthly partitions:** ReplacingMergeTree only deduplicates *within* a
                   partition. A chargeback opened on 2026-03-28 and won on 2026-04-15 has its two rows in
                   different partitions, and they'll never merge. So queries for "current status" must
                   still use `argMax(status, event_time) ... GROUP BY chargeback_id` (or `FINAL`, which
                   has the same limitation). The table makes it cheaper, not automatic. If that bothers
                   the analysts, the alternative is `PARTITION BY tuple()` for this table — chargeback
                   volume is low enough that one partition is fine — and I'd actually lean that way.

                Complete **route.go** with the third route:

                ```go
                package main

                import (
                    "time"

                    json "github.com/goccy/go-json"
                    "github.com/twmb/franz-go/pkg/kgo"
                )

                type route struct {
                    table   string
                    batcher *Batcher
                    decode  func(r *kgo.Record) (any, error)
                }

                func newRoutes(bc BatchConfig) map[string]*route {
                    return map[string]*route{
                        "payments.events.v1": {
                            table:   "payment_events_all",
                            batcher: NewBatcher(bc),
                            decode: func(r *kgo.Record) (any, error) {
                                var w wireEvent
                                if err := json.Unmarshal(r.Value, &w); err != nil {
                                    return nil, err
                                }
                                return w.toRow(r.Partition, r.Offset)
                            },
                        },
                        "refunds.events.v1": {
                            table:   "refund_events_all",
                            batcher: NewBatcher(bc),
                            decode: func(r *kgo.Record) (any, error) {
                                var w wireRefund
                                if err := json.Unmarshal(r.Value, &w); err != nil {
                                    return nil, err
                                }
                                return w.toRow(r.Partition, r.Offset)
                            },
                        },
                        "chargebacks.events.v1": {
                            table:   "chargeback_events_all",
                            batcher: NewBatcher(bc),
                            decode: func(r *kgo.Record) (any, error) {
                                var w wireChargeback
                                if err := json.Unmarshal(r.Value, &w); err != nil {
                                    return nil, err
                                }
                                return w.toRow(r.Partition, r.Offset)
                            },
                        },
                    }
                }

                func (rt *route) add(r *kgo.Record, row any, now time.Time) {
                    rt.batcher.Add(row, r, now)
                }
                ```

                And the wire type, **chargeback.go**:

                ```go
                package main

                import (
                    "fmt"
                    "time"
                )

                var validStatus = map[string]bool{"opened": true, "won": true, "lost": true}

                type wireChargeback struct {
                    ChargebackID    string `json:"chargeback_id"`
                    OriginalEventID string `json:"original_event_id"`
                    MerchantID      string `json:"merchant_id"`
                    ReasonCode      string `json:"reason_code"`
                    Amount          string `json:"amount"`
                    Currency        string `json:"currency"`
                    Status          string `json:"status"`
                    EventTime       string `json:"event_time"`
                }

                type ChargebackEvent struct {
                    ChargebackID    string
                    OriginalEventID string
                    MerchantID      string
                    ReasonCode      string
                    AmountMinor     int64
                    Currency        string
                    Status          string
                    EventTime       time.Time
                    Partition       uint16
                    Offset          uint64
                }

                func (w wireChargeback) toRow(partition int32, offset int64) (ChargebackEvent, error) {
                    if !validStatus[w.Status] {
                        return ChargebackEvent{}, fmt.Errorf("status: unknown %q", w.Status)
                    }
                    amt, err := parseAmountMinor(w.Amount)
                    if err != nil {
                        return ChargebackEvent{}, err
                    }
                    t, err := time.Parse(time.RFC3339Nano, w.EventTime)
                    if err != nil {
                        return ChargebackEvent{}, fmt.Errorf("event_time: %w", err)
                    }
                    return ChargebackEvent{
                        ChargebackID: w.ChargebackID, OriginalEventID: w.OriginalEventID,
                        MerchantID: w.MerchantID, ReasonCode: w.ReasonCode, AmountMinor: amt,
                        Currency: w.Currency, Status: w.Status, EventTime: t.UTC(),
                        Partition: uint16(partition), Offset: uint64(offset),
                    }, nil
                }
                ```

                An unknown status is rejected (→ DLQ) rather than stored: if the disputes team adds a
                status like `pre_arbitration`, we want to hear about it, not silently store it.
                """
            )
        ),
        u(
            "Going with PARTITION BY tuple() for chargebacks, Keiko agreed instantly. What was the commit type for new tables, feat?"
        ),
        a(
            w(
                r"""
                Yes, `feat` — it's new behaviour visible to users of the data:

                ```
                feat: ingest chargebacks into clickhouse

                Route the chargeback topic to a new chargeback_events table, a
                ReplacingMergeTree keyed by merchant and chargeback id with
                event_time as the version, so the latest status wins. Single
                partition, since chargeback volume is low and status changes can
                span months. Unknown statuses go to the DLQ.

                Refs: ING-74
                ```
                """
            )
        ),
        u(
            "Keiko's already asking for a chargeback ratio per merchant per month — chargebacks opened divided "
            "by captured payments. Can you write that one?"
        ),
        a(
            w(
                r"""
                Here it is. Two subqueries, each deduplicated the way its table needs, joined on merchant
                and month. Chargebacks are counted by the month they were **opened** (the first event),
                which is how card schemes count them for monitoring programmes.

                ```sql
                WITH
                captures AS
                (
                    SELECT merchant_id, toStartOfMonth(event_time) AS month, count() AS captured
                    FROM
                    (
                        SELECT event_id,
                               argMax(merchant_id, ingested_at) AS merchant_id,
                               argMax(event_type, ingested_at)  AS event_type,
                               argMax(event_time, ingested_at)  AS event_time
                        FROM payments.payment_events_all
                        WHERE event_time >= toDateTime64('2026-01-01 00:00:00', 3, 'UTC')
                        GROUP BY event_id
                    )
                    WHERE event_type = 'captured'
                    GROUP BY merchant_id, month
                ),
                opened AS
                (
                    SELECT merchant_id, toStartOfMonth(min(event_time)) AS month, chargeback_id
                    FROM payments.chargeback_events_all
                    GROUP BY merchant_id, chargeback_id
                )
                SELECT
                    c.merchant_id,
                    c.month,
                    c.captured,
                    countIf(o.chargeback_id != '') AS chargebacks,
                    round(chargebacks / c.captured * 100, 3) AS ratio_pct
                FROM captures AS c
                LEFT JOIN opened AS o ON o.merchant_id = c.merchant_id AND o.month = c.month
                GROUP BY c.merchant_id, c.month, c.captured
                HAVING c.captured >= 100
                ORDER BY c.month DESC, ratio_pct DESC;
                ```

                The `HAVING c.captured >= 100` hides tiny merchants whose ratios swing wildly on one
                dispute. The schemes' own thresholds are around 0.9–1% for early-warning programmes,
                so anything above 0.5% in this list is worth a look by the risk team.
                """
            )
        ),
        u(
            "Keiko asks: now that chargebacks sit in one partition, can she just use FINAL for current "
            "status instead of the argMax dance?"
        ),
        a(
            w(
                r"""
                Yes, with one partition `FINAL` gives her exactly one row per chargeback, the latest
                status:

                ```sql
                SELECT merchant_id, chargeback_id, status, reason_code, amount_minor / 100 AS amount, event_time
                FROM payments.chargeback_events_all FINAL
                WHERE merchant_id = 'm_4411'
                ORDER BY event_time DESC;
                ```

                Since 23.x `FINAL` is parallelised and at chargeback volumes it costs nothing noticeable.
                The only thing to avoid is `FINAL` on the big payment events table over months of data;
                there the `argMax` form stays.
                """
            )
        ),
        u("Perfect, sent. Quiet week otherwise, which I'm not complaining about."),
    ],
)

S11 = Session(
    "2026-03-26T09:45:00Z",
    [
        u(
            w(
                r"""
                Third load test, the pre-Easter one Declan asked for. What changed since February: 48
                partitions, the library bumps, three topics, schema v2 payloads (bigger), and we're now on
                6 pods at 1 CPU / 1 GiB with GOMEMLIMIT. Batch settings unchanged. k6 split 85/10/5
                across payments/refunds/chargebacks.

                ```
                2026-03-25T20:00Z ceiling run, 15 min plateau, k6 at 6,500 it/s = 65.0k events/s
                sum(rate(evingest_rows_inserted_total[1m]))   60.6k-61.3k
                end_to_end  p50 1.02s  p95 1.94s  p99 2.71s
                flush       p50 0.48s  p95 0.96s  p99 1.38s
                batch_rows  p50 21.4k
                lag: 0 -> 3.6M
                cpu: 0.7-0.8 per pod
                heap_inuse max 512 MiB
                ClickHouse: ~4.5 inserts/s cluster-wide, active parts max 188, merges keeping up

                2026-03-25T20:45Z steady run, 15 min, 5,000 it/s = 50.0k events/s
                ingested 50.0k, lag flat at ~0
                end_to_end  p50 0.95s  p95 1.71s  p99 2.22s
                ```
                """
            )
        ),
        a(
            w(
                r"""
                The full history, in the agreed format:

                | Run | Pods | Partitions | Produced (events/s) | Ingested (events/s) | e2e p50 (ms) | e2e p95 (ms) | e2e p99 (ms) | flush p99 (ms) |
                |---|---|---|---|---|---|---|---|---|
                | 2026-01-28 | 3 | 24 | 20,000 | 14,200 | 640 | 1,310 | 1,850 | 410 |
                | 2026-02-11 ceiling | 3 | 24 | 40,000 | 38,500 | 410 | 930 | 1,620 | 570 |
                | 2026-03-25 ceiling | 6 | 48 | 65,000 | 61,000 | 1,020 | 1,940 | 2,710 | 1,380 |
                | 2026-03-25 steady | 6 | 48 | 50,000 | 50,000 | 950 | 1,710 | 2,220 | — |

                Headline: **61,000 events/s at the ceiling, and 50,000 sustained with zero lag**, on six
                pods. That's about 7× last year's Black Friday peak.

                Reading the rest:

                - **Latency went up, on purpose.** p50 rose from ~400 ms to ~1 s because of the 2 s
                  MaxWait and bigger batches (21k rows median). That's the trade Bilal asked for, and it
                  shows on the ClickHouse side: ~4.5 inserts/s instead of ~22, and active parts peaked at
                  188 instead of 610. p99 of 2.7 s at the ceiling is still well inside the 10-second SLO.
                - **The pods are not the limit.** CPU 0.7–0.8 and lag growing means something downstream
                  is: the flush p99 of 1.38 s with 6 pods inserting is the Distributed table forwarding to
                  the shards. Each insert lands on one node, gets split by `cityHash64(merchant_id)` and
                  forwarded. That forwarding is the next bottleneck.
                - **Memory is fine.** 512 MiB peak under GOMEMLIMIT; the 1 GiB limit holds.
                - **Per-pod throughput dropped** from ~12.8k/s to ~10.2k/s — expected with schema v2
                  (bigger payloads, more fields to decode) and three topics instead of one.

                If we ever need more than ~60k/s, the two levers are inserting directly into the local
                shard tables (skipping the Distributed hop), and more ClickHouse shards. Neither is needed
                for Easter.
                """
            ),
            key="s11-results",
        ),
        u(
            "Declan wants a capacity statement for the Easter campaign. Marketing expects peak traffic about "
            "3× normal, so ~27k events/s across all three topics. Short and plain, it goes into his update "
            "to the CTO."
        ),
        a(
            w(
                r"""
                > **evingest capacity for the Easter campaign (2026-04-03 to 2026-04-06)**
                >
                > Expected peak: ~27,000 events/s across payments, refunds and chargebacks (3× normal).
                >
                > Measured on staging on 2026-03-25 with production-like payloads: 50,000 events/s
                > sustained with no lag, 61,000 events/s maximum, on the current 6 pods. End-to-end p99
                > latency at 50,000 events/s was 2.2 s against a 10 s freshness SLO.
                >
                > Headroom at the expected peak is therefore about 1.85× sustained, without scaling. If
                > traffic exceeds 45,000 events/s we can add pods (up to 48) within minutes; the next
                > limit after that is ClickHouse insert forwarding, not the ingester.
                >
                > Alerts on consumer lag, failed inserts and read-only ClickHouse replicas page the
                > on-call engineer. No changes to evingest are planned during the campaign window.

                I'd add the change-freeze sentence only if it's true — is there a freeze for the
                campaign?
                """
            )
        ),
        u("Yes, 2026-04-02 to 2026-04-07, no deploys. Keeping the sentence."),
        u(
            w(
                r"""
                Tomasz's comment on the load test doc: he wants us to insert directly into the local
                tables instead of through payment_events_all, because "Distributed inserts are a crutch".
                He's not wrong about the forwarding, but it sounds like a lot of work for Easter. Your
                take?
                """
            )
        ),
        a(
            w(
                r"""
                He's right in principle and I'd still not do it before Easter. The trade-off:

                | | Through Distributed (now) | Direct to local tables |
                |---|---|---|
                | Who shards | ClickHouse, by `cityHash64(merchant_id)` | evingest, same hash in Go |
                | Extra hop | yes — insert node forwards parts to other shards | no |
                | Failure handling | async forwarding queue on disk; an insert "succeeds" before data reaches its shard | each shard insert succeeds or fails on its own; we retry per shard |
                | Topology knowledge | none in evingest | evingest must know shards and replicas |
                | Work | done | new sink, per-shard batches, tests, config |

                The second row is the throughput argument. The third is the argument I find stronger,
                actually: with `insert_distributed_sync = 0`, our "insert succeeded, commit the offset"
                means "the insert node accepted it into its forwarding queue" — if that node's disk dies
                before forwarding, those rows are gone and Kafka has already moved on. Direct inserts
                make our commit mean what we think it means.

                So: a good Q2 project, written up properly, not something to squeeze into the week before
                a change freeze. For now a cheap improvement is `insert_distributed_sync = 1`, which
                makes the Distributed insert wait until all shards have the data: slower inserts (~20–30%
                in my experience), but an honest acknowledgement. At 27k/s expected against 61k measured,
                we can afford it. Worth a quick staging run before the freeze.
                """
            )
        ),
        u(
            "Tomasz agreed: sync inserts now, direct inserts as a Q2 ticket. Ran a quick check with "
            "insert_distributed_sync=1 at 30k events/s: no lag, p99 2.9s. Good enough."
        ),
        a(
            w(
                r"""
                Good result — that's the number I'd quote for the campaign, since it's the configuration
                you'll actually run:

                | Run | Pods | Produced (events/s) | Ingested (events/s) | e2e p99 (ms) | Note |
                |---|---|---|---|---|---|
                | 2026-03-26 | 6 | 30,000 | 30,000 | 2,900 | `insert_distributed_sync = 1` |

                You only gave me the p99, so I've left p50 and p95 out rather than guess. The ceiling
                with sync inserts will be lower than 61,000, but you don't need it before Easter.
                """
            )
        ),
        u(
            "For the campaign weekend Declan wants one Grafana dashboard the on-call person can glance at. "
            "Which panels, and what queries?"
        ),
        a(
            w(
                r"""
                Six panels, top to bottom in the order you'd read them during an incident — "are we OK",
                then "why not":

                | # | Panel | Query | What bad looks like |
                |---|---|---|---|
                | 1 | Consumer lag (messages), per topic | `sum by (topic) (confluent_kafka_server_consumer_lag_offsets{consumer_group_id="evingest-clickhouse"})` | rising line |
                | 2 | End-to-end latency p50/p95/p99 | `histogram_quantile(0.99, sum by (le) (rate(evingest_end_to_end_seconds_bucket[5m])))` (and 0.5, 0.95) | p99 above 10 s |
                | 3 | Ingested vs produced, events/s | `sum(rate(evingest_rows_inserted_total[1m]))` vs `sum(rate(confluent_kafka_server_received_records[1m]))` | gap between the lines |
                | 4 | Insert errors and DLQ | `sum(rate(evingest_insert_errors_total[5m]))`, DLQ produce rate | anything non-zero for long |
                | 5 | Flush duration p99 and rows per batch | `histogram_quantile(0.99, sum by (le) (rate(evingest_flush_duration_seconds_bucket[5m])))`, `histogram_quantile(0.5, ...evingest_batch_rows_bucket...)` | flush p99 climbing toward 5 s |
                | 6 | ClickHouse: read-only replicas, active parts | `max by (instance) (ClickHouseMetrics_ReadonlyReplica)`, max active parts from `system.parts` exporter | read-only > 0, parts > 1,000 |

                Put the alert thresholds on the panels as red threshold lines (10 s on panel 2, 500k on
                panel 1), so the person looking doesn't need to remember them. And add an annotation
                query for deploys, so "did this start after a deploy?" answers itself — though with the
                freeze, there shouldn't be any.
                """
            )
        ),
        u(
            "Building it now. One more: heap peaked at 512 MiB in the test. Should we lower the memory limit "
            "to save a bit on the node pool?"
        ),
        a(
            w(
                r"""
                I'd leave it at 1 GiB, at least through Easter. 512 MiB was the peak *with GOMEMLIMIT
                at 800 MiB steering the GC* — the runtime collects more aggressively as it approaches
                the limit, so the observed peak understates what the process would use if you lowered
                everything. And the worst case isn't the load test: it's a catch-up after an outage,
                when every batch is full at 50,000 rows and fetch buffers are saturated. Six pods × 512
                MiB of headroom is a small price compared with OOM-kills during a catch-up, which would
                turn one incident into a rebalance storm.
                """
            )
        ),
        u(
            "Fair. Non-work: 18 km on Sunday without the knees complaining. Seven weeks to Leiden. I might "
            "actually enjoy this."
        ),
        a(
            "18 km with happy knees seven weeks out is right where you want to be. The taper will feel strange; trust it."
        ),
    ],
)

S12 = Session(
    "2026-04-08T16:30:00Z",
    [
        u(
            w(
                r"""
                Easter done. Peak was 24.3k events/s on Saturday, evingest didn't even notice, no alerts.
                And we switched off the old Python cron job on 2026-04-01 — nobody noticed that either,
                which is the best compliment it could get.

                Last open action item from the outage postmortem is the runbook page (both alert rules
                already link to it). Can you write it? It lives on the wiki as markdown.
                """
            )
        ),
        a(
            w(
                r"""
                Congratulations on a quiet Easter — that's what all the load testing was for. Here's the
                runbook page, with sections matching the anchors the alerts link to:

                # evingest runbook

                evingest consumes payments.events.v1, refunds.events.v1 and chargebacks.events.v1
                (consumer group evingest-clickhouse) and inserts into ClickHouse tables in the
                payments database. Deployment: namespace data-ingest. Metrics: port 9102 on each pod.
                Owner: payments-data. Times in this runbook are UTC.

                ## lag

                Alert: consumer lag above 500k messages for 5 minutes.

                1. Are inserts succeeding? Check `rate(evingest_rows_inserted_total[5m])`.
                   - Zero, with insert errors rising → go to **insert-errors**.
                   - Non-zero → evingest is working but slower than traffic; continue.
                2. Is traffic unusually high? Compare produced rate with the last load test ceiling.
                3. Are pods CPU-bound (close to 1.0)? Scale up:
                   `kubectl -n data-ingest scale deploy/evingest --replicas=<n>` (max useful: number of
                   partitions of the largest topic).
                4. Is flush duration high (`evingest_flush_duration_seconds` p99 > 5 s)? The bottleneck is
                   ClickHouse: check active parts and merges (queries below), then involve SRE.
                5. Do not restart pods to "unstick" them: no data is lost while lag grows, and restarts
                   add rebalances.

                ## insert-errors

                Alert: no rows inserted for 3 minutes while inserts are attempted.

                1. Read the error from the logs:
                   `kubectl -n data-ingest logs deploy/evingest --since=10m | grep '"insert retry"' | tail -5`
                2. `code: 242 ... readonly mode` → ClickHouse replicas lost Keeper. Page SRE; check
                   `ClickHouseReplicaReadOnly`. Nothing to do on evingest: it retries indefinitely and
                   resumes by itself.
                3. `code: 252 ... Too many parts` → merges behind. Scale evingest down by half to slow
                   inserts. Never raise `parts_to_throw_insert`.
                4. Connection refused / timeouts → check ClickHouse nodes are up and reachable from the
                   cluster.
                5. Anything else → data errors go to the DLQ automatically; unknown errors retry 8 times,
                   then the batch goes to the DLQ. Check the DLQ topic (below).

                ## dlq

                Topic: evingest.dlq.v1 (6 partitions, 14 days' retention). Headers carry the source
                topic, partition, offset and the error.

                - Inspect: `kcat -C -t evingest.dlq.v1 -f '%h\n%s\n\n' -e`
                - After fixing the cause, replay with `make dlq-replay` (see repo README).

                ## Useful queries

                ```sql
                SELECT table, partition, count() FROM system.parts
                WHERE database = 'payments' AND active GROUP BY table, partition ORDER BY 3 DESC;

                SELECT database, table, replica_name, is_readonly, zookeeper_exception
                FROM system.replicas WHERE database = 'payments';
                ```

                I referenced a `make dlq-replay` target that doesn't exist yet — do you have anything
                sitting in the DLQ right now?
                """
            )
        ),
        u(
            "Yes: 37 messages, all from the v2 rollout day. One producer instance had a Portuguese locale and "
            "sent fee_amount as '1,20'. Rafael's team fixed the producer. So the data is recoverable if we "
            "replace the comma."
        ),
        a(
            w(
                r"""
                Then a small replay tool that reads the DLQ, optionally applies a named fix, and produces
                back to the source topic from the header. Re-producing (rather than inserting directly)
                means the fixed events go through the normal decode path and the same dedup guarantees.

                **cmd/dlq-replay/main.go**

                ```go
                package main

                import (
                    "context"
                    "flag"
                    "log/slog"
                    "os"
                    "regexp"
                    "time"

                    "github.com/twmb/franz-go/pkg/kgo"
                )

                var fixes = map[string]func([]byte) []byte{
                    "none": func(b []byte) []byte { return b },
                    // "fee_amount":"1,20" -> "fee_amount":"1.20"
                    "comma-decimal": func(b []byte) []byte {
                        re := regexp.MustCompile(`("(?:amount|fee_amount)":"-?\d+),(\d{1,2}")`)
                        return re.ReplaceAll(b, []byte(`$1.$2`))
                    },
                }

                func main() {
                    brokers := flag.String("brokers", os.Getenv("KAFKA_BROKERS"), "seed brokers")
                    fix := flag.String("fix", "none", "fix to apply before re-producing: none, comma-decimal")
                    dryRun := flag.Bool("dry-run", true, "print what would be replayed without producing")
                    flag.Parse()

                    logger := slog.New(slog.NewJSONHandler(os.Stdout, nil))
                    apply, ok := fixes[*fix]
                    if !ok {
                        logger.Error("unknown fix", "fix", *fix)
                        os.Exit(2)
                    }

                    cl, err := kgo.NewClient(
                        kgo.SeedBrokers(*brokers),
                        kgo.ConsumeTopics("evingest.dlq.v1"),
                        kgo.ConsumerGroup("evingest-dlq-replay"),
                        kgo.DisableAutoCommit(),
                    )
                    if err != nil {
                        logger.Error("client", "err", err)
                        os.Exit(1)
                    }
                    defer cl.Close()

                    ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
                    defer cancel()
                    replayed := 0
                    for {
                        fetches := cl.PollFetches(ctx)
                        if ctx.Err() != nil {
                            break
                        }
                        var out []*kgo.Record
                        fetches.EachRecord(func(r *kgo.Record) {
                            src := header(r, "evingest.source_topic")
                            value := apply(r.Value)
                            logger.Info("replay", "source_topic", src, "source_offset", header(r, "evingest.source_offset"),
                                "changed", string(value) != string(r.Value))
                            out = append(out, &kgo.Record{Topic: src, Key: r.Key, Value: value})
                        })
                        if len(out) == 0 {
                            break
                        }
                        if !*dryRun {
                            if err := cl.ProduceSync(ctx, out...).FirstErr(); err != nil {
                                logger.Error("produce", "err", err)
                                os.Exit(1)
                            }
                            if err := cl.CommitUncommittedOffsets(ctx); err != nil {
                                logger.Error("commit", "err", err)
                                os.Exit(1)
                            }
                        }
                        replayed += len(out)
                    }
                    logger.Info("done", "replayed", replayed, "dry_run", *dryRun)
                }

                func header(r *kgo.Record, key string) string {
                    for _, h := range r.Headers {
                        if h.Key == key {
                            return string(h.Value)
                        }
                    }
                    return ""
                }
                ```

                Makefile target (add to the existing Makefile):

                ```makefile
                dlq-replay:
                	go run ./cmd/dlq-replay -fix=$(FIX) -dry-run=$(DRY_RUN)
                ```

                Usage: `make dlq-replay FIX=comma-decimal DRY_RUN=true` first — check that all 37 log
                `"changed":true` — then `DRY_RUN=false`. `-dry-run` defaults to true on purpose. The
                replayed events get new offsets on the source topic, and if any of them somehow made it
                into ClickHouse before, ReplacingMergeTree collapses the copies.
                """
            )
        ),
        u(
            "Dry run: 37 of 37 changed. Real run done, Keiko confirmed the fees are in. That closes the "
            "postmortem. Declan's happy, we talked about Q2 this morning: settlements topic and the direct "
            "shard inserts Tomasz wants."
        ),
        a(
            w(
                r"""
                A good way to close the quarter: the old job is off, Easter passed without a page, and the
                postmortem is fully closed. For Q2, I'd sequence them as direct shard inserts first, then
                settlements — settlements will be the table finance reconciles against, and you want the
                honest acknowledgement semantics in place before the numbers matter for money leaving the
                company.

                When you start on the direct inserts, bring the current `sink.go` and `consumer.go` along
                and we'll design the per-shard batching from there.
                """
            )
        ),
        u(
            w(
                r"""
                Tomasz also wants a README in the repo before Q2 starts, nothing fancy: what it is, how
                to run it locally, configuration, where the runbook lives.
                """
            )
        ),
        a(
            w(
                r"""
                **README.md**

                ```markdown
                # evingest

                Streams payment, refund and chargeback events from Kafka into ClickHouse.

                - Topics: payments.events.v1, refunds.events.v1, chargebacks.events.v1
                - Consumer group: evingest-clickhouse
                - Tables: payments.payment_events, payments.refund_events, payments.chargeback_events
                  (ReplacingMergeTree, written through the *_all Distributed tables)
                - Delivery: at least once. Offsets are committed only after ClickHouse acknowledges a
                  batch; duplicates collapse in the ReplacingMergeTree tables.
                - Runbook: https://wiki.kestrelpay.internal/data/runbooks/evingest

                ## Local development

                Requires Docker and Go 1.23.

                    make up               # Redpanda + ClickHouse, creates topics and tables
                    make run              # runs evingest against the local stack
                    make test             # unit tests with -race
                    make lint             # golangci-lint
                    make loadtest-local   # k6 + xk6-kafka against the local stack
                    make down             # stops and removes the stack

                ## Configuration

                | Variable | Default | Notes |
                |---|---|---|
                | KAFKA_BROKERS | localhost:9092 | comma-separated |
                | KAFKA_GROUP | evingest-clickhouse | |
                | KAFKA_TOPICS | payments.events.v1 | comma-separated; production sets all three |
                | KAFKA_USER / KAFKA_PASS | — | SASL credentials, from the evingest-kafka secret |
                | CH_ADDRS | localhost:9000 | comma-separated native-protocol addresses |
                | CH_DATABASE | payments | |
                | CH_PASSWORD | — | from the evingest-ch secret |
                | INGEST_MAX_ROWS | 5000 | rows per batch before a flush; production overrides it |
                | INGEST_MAX_WAIT | 1s | max time a row waits in a batch; production overrides it |
                | METRICS_ADDR | :9102 | /metrics and /healthz |
                | GOMEMLIMIT | — | set to 800MiB in production |

                ## Dead-letter queue

                Undecodable events and rows ClickHouse rejects go to evingest.dlq.v1 with the source
                topic, partition, offset and error in headers. Replay after fixing the cause:

                    make dlq-replay FIX=none DRY_RUN=true
                ```

                I kept the production batch values out of the table and pointed at "production
                overrides it", so the README doesn't go stale every time someone tunes the deployment;
                the deployment manifest is the source of truth for those.
                """
            )
        ),
        u("Will do. Five weeks to Leiden, and I've booked a few days off after it. See you in Q2."),
        a("Enjoy the race and the days off. See you in Q2."),
    ],
)

CHAT = Chat(
    name="ws-13-go-ingest",
    sessions=[S1, S2, S3, S4, S5, S6, S7, S8, S9, S10, S11, S12],
    questions=[
        Question(
            "Route a settlements topic through the consumer as well.",
            "complete files",
            ["si-files"],
            "standing-instruction",
        ),
        Question(
            "The per-shard insert work is done, ING-90. Draft what goes into git log for it.",
            "Conventional Commits",
            ["si-files"],
            "standing-instruction",
        ),
        Question(
            "Lay out Saturday's ClickHouse 24.8 upgrade step by step, including when each step starts.",
            "in UTC",
            ["si-utc"],
            "standing-instruction",
        ),
        Question(
            "Summarise yesterday's sync-insert benchmark for the channel.",
            "no averages",
            ["si-loadtable"],
            "standing-instruction",
        ),
        Question(
            "We need to record each rebalance in the service output. How should I emit that?",
            "log/slog",
            ["pref-slog"],
            "preference",
        ),
        Question(
            "Cover parseAmountMinor with unit checks.",
            "table-driven tests",
            ["pref-testing"],
            "preference",
        ),
        Question(
            "I'd like a single entry point that builds the replay tool and kicks off a soak on my laptop.",
            "Makefile",
            ["pref-make"],
            "preference",
        ),
        Question(
            "Suggest somewhere in Amsterdam for the post-Easter team dinner.",
            "vegetarian",
            ["s4-porto"],
            "preference",
        ),
        Question("Who's my lead now?", "Declan Moore", ["ku-lead-new"], "knowledge-update", ["s1-intro"]),
        Question(
            "Who reviews my evingest pull requests these days?",
            "Tomasz Wójcik",
            ["ku-rev-new"],
            "knowledge-update",
            ["pref-testing"],
        ),
        Question(
            "What's the highest rate the ingester has reached in a load test so far?",
            "61,000",
            ["s11-results"],
            "knowledge-update",
            ["s3-results", "s5-results"],
        ),
        Question(
            "How many rows can a batch hold before it gets flushed?",
            "50,000 rows",
            ["ku-batch-new"],
            "knowledge-update",
            ["s2-batcher"],
        ),
        Question(
            "How many partitions does the payments topic have?",
            "48",
            ["ku-part-new"],
            "knowledge-update",
            ["s1-answers"],
        ),
        Question(
            "How fresh does the data in ClickHouse have to be?",
            "10 seconds",
            ["ku-slo-new"],
            "knowledge-update",
            ["s1-answers"],
        ),
        Question(
            "Which version of the ClickHouse Go driver are we on?",
            "v2.30.0",
            ["ku-chgo-new"],
            "knowledge-update",
            ["s1-gomod"],
        ),
        Question(
            "Which Kafka topics does evingest read from now?",
            "payments.events.v1; refunds.events.v1; chargebacks.events.v1",
            ["s1-intro", "ku-lead-new", "s10-chargebacks"],
            "multi-turn",
        ),
        Question(
            "What bugs did we fix in the ingester this quarter?",
            "committing offsets before the insert; amounts as float64; duplicate rows after a rebalance",
            ["s1-review", "s4-float", "s6-dupes"],
            "multi-turn",
        ),
        Question(
            "Which alerts did we add after the February outage?",
            "IngestConsumerLagHigh; IngestNotInserting; ClickHouseReplicaReadOnly",
            ["s7-alert", "s8-alert2"],
            "multi-turn",
        ),
        Question("Where did I travel this quarter?", "Porto; Ghent", ["s4-porto", "s9-ghent"], "multi-turn"),
        Question("Where are our ClickHouse servers hosted?", "Hetzner in Falkenstein", ["s1-intro"], "single-fact"),
        Question(
            "What did we use to generate the Kafka traffic for load tests?", "xk6-kafka", ["s3-tool"], "single-fact"
        ),
        Question(
            "What actually stopped ClickHouse accepting writes during the outage?",
            "Keeper lost quorum",
            ["s7-cause"],
            "single-fact",
        ),
        Question(
            "Which race am I training for?",
            "first half marathon, Leiden in May",
            ["s3-race"],
            "single-fact",
        ),
        Question(
            "What's the function called that decides whether a batch is ready to go out?",
            "shouldFlush",
            ["s2-batcher"],
            "code",
        ),
        Question("Which port does the ingester serve Prometheus metrics on?", "9102", ["s2-metrics"], "code"),
        Question(
            "What's the sorting key on the payment events table?",
            "(merchant_id, event_time, event_id)",
            ["s1-ddl"],
            "code",
        ),
        Question("What's the dead-letter topic called?", "evingest.dlq.v1", ["s4-retry"], "code"),
        Question(
            "Add a spike to the load script: triple the traffic for two minutes in the middle of the plateau.",
            "ramping-arrival-rate",
            ["s3-k6"],
            "request-context",
        ),
        Question(
            "Turn the daily totals query we gave Keiko into a materialized view so she stops rerunning it.",
            "argMax",
            ["s6-dedup-query"],
            "request-context",
        ),
        Question(
            "Add a softer version of the lag alert that only posts to Slack, at a lower threshold.",
            "IngestConsumerLagHigh",
            ["s7-alert", "s8-alert2"],
            "request-context",
        ),
    ],
)
