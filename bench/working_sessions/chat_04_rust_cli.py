"""A user building a small Rust command-line tool at work with an assistant, over eight weeks: clap and
serde, errors, three carriers' file formats, benchmarks, release builds, a cross-compile target that
changes with the hardware, and a demo date that moves."""

from __future__ import annotations

from bench.working_sessions.shape import Chat, Question, Session, a, u, w

S1 = Session(
    "2026-01-12T19:40:00Z",
    [
        u(
            w(
                r"""
                Evening. I want to write a small Rust CLI for work — I'm on the ops tooling side at
                Brackwater Freight. It reads the manifest files carriers send us (CSV mostly) and flags bad
                rows before they reach billing. I'm calling it slipcheck. I've done the Rust book and some
                Exercism but never shipped anything real in Rust, so assume I know the syntax and not much
                about the ecosystem.
                """
            ),
            key="rc-intro",
        ),
        a(
            w(
                r"""
                Nice first project — a file-in, report-out CLI is about the best shape there is for learning
                Rust properly. Here's a starting point that keeps the moving parts small: clap for the
                arguments, serde + csv for reading rows, anyhow for errors in `main` while we figure out
                what the real error cases are.

                ```toml
                [package]
                name = "slipcheck"
                version = "0.1.0"
                edition = "2021"

                [dependencies]
                clap = { version = "4.4", features = ["derive"] }
                serde = { version = "1.0", features = ["derive"] }
                csv = "1.3"
                anyhow = "1.0"
                ```

                Layout I'd suggest:

                - `src/main.rs` — argument parsing and the exit code, nothing else
                - `src/lib.rs` — the reading and checking, so it can be tested and benchmarked
                - `tests/` — a few real (anonymised) manifests as fixtures

                Want me to sketch `main.rs` with a single `validate <FILE>` command to start?
                """
            ),
            key="rc-clap-old",
        ),
        u(
            "One ground rule before we go on: when you change something, give me the whole file back, "
            "never fragments. I paste straight over mine.",
            key="rc-rule-wholefile",
        ),
        a(
            w(
                r"""
                Understood — complete files from here on. Here's `src/main.rs` in full:

                ```rust
                use std::path::PathBuf;

                use anyhow::{Context, Result};
                use clap::Parser;

                /// Check carrier manifest files before they reach billing.
                #[derive(Parser, Debug)]
                #[command(name = "slipcheck", version, about)]
                struct Cli {
                    /// The manifest file to read
                    file: PathBuf,
                }

                fn main() -> Result<()> {
                    let cli = Cli::parse();
                    let text = std::fs::read_to_string(&cli.file)
                        .with_context(|| format!("could not read {}", cli.file.display()))?;
                    let mut reader = csv::Reader::from_reader(text.as_bytes());
                    let mut rows = 0usize;
                    for record in reader.records() {
                        let _record = record?;
                        rows += 1;
                    }
                    println!("{rows} rows read from {}", cli.file.display());
                    Ok(())
                }
                ```

                It reads everything into memory up front, which is fine for now; we can switch to streaming from
                a `File` later if the files get big.
                """
            )
        ),
        u(
            "And please: no unwrap() outside of tests. I got burned by a panic in a cron job last year "
            "and was paged at 3am for it.",
            key="rc-rule-unwrap",
        ),
        a(
            w(
                r"""
                Agreed, and it's a good habit for a tool that'll run unattended. Outside tests I'll use `?`
                with context, or handle the `None`/`Err` case explicitly; if something truly can't fail
                I'll use `expect("reason")` only where the reason is provable and say why in the message.
                """
            )
        ),
        u(
            w(
                r"""
                ok first carrier. We'll start with Hallam Express — they're the biggest volume. Their
                manifests are semicolon-separated, of course, because the export tool was set up by someone
                in their Rotterdam office. Header looks like:

                ```
                consignment;collected;postcode;weight_kg;pieces;service
                HX-20931;2026-01-09;LS11 5QT;12.40;2;NEXT
                ```
                """
            ),
            key="rc-carrier-hallam",
        ),
        a(
            w(
                r"""
                Semicolons are easy — `csv::ReaderBuilder` takes a delimiter. And since we know the columns,
                let's deserialize into a struct instead of poking at string records. Full `src/main.rs`:

                ```rust
                use std::path::PathBuf;

                use anyhow::{Context, Result};
                use clap::Parser;
                use serde::Deserialize;

                #[derive(Parser, Debug)]
                #[command(name = "slipcheck", version, about)]
                struct Cli {
                    file: PathBuf,
                }

                #[derive(Debug, Deserialize)]
                struct Row {
                    consignment: String,
                    collected: String,
                    postcode: String,
                    weight_kg: f64,
                    pieces: u32,
                    service: String,
                }

                fn main() -> Result<()> {
                    let cli = Cli::parse();
                    let mut reader = csv::ReaderBuilder::new()
                        .delimiter(b';')
                        .from_path(&cli.file)
                        .with_context(|| format!("could not open {}", cli.file.display()))?;
                    let mut rows = 0usize;
                    for result in reader.deserialize::<Row>() {
                        let row = result.context("bad row")?;
                        rows += 1;
                        let _ = row;
                    }
                    println!("{rows} rows read");
                    Ok(())
                }
                ```

                Note `from_path` streams from the file now rather than reading it all up front.
                """
            )
        ),
        u("warning: fields `consignment`, `collected`, ... are never read. ignore?"),
        a(
            "Yes, for now — it's just rustc noticing we deserialize the fields but don't use them yet. "
            "They'll be read as soon as validation exists. If it bothers you, `#[allow(dead_code)]` on the "
            "struct, but I'd rather leave the warning as a reminder."
        ),
        u(
            "It reads! 2,300 rows from last Tuesday's file, no complaints. Calling it a night, my son has "
            "his recorder recital in the morning and I've promised not to be a zombie."
        ),
        a(
            "Good luck surviving the recorders. Next time: the actual checks — which rows count as bad — and "
            "proper error types."
        ),
    ],
)

S2 = Session(
    "2026-01-15T20:05:00Z",
    [
        u(
            w(
                r"""
                Right, validation. What counts as bad, per the billing team:

                - weight missing, zero or negative
                - postcode that doesn't look like a UK postcode
                - pieces = 0
                - the same consignment number twice in one file
                - collected date in the future

                Warnings (not errors): weight over 1000 kg, service code we don't know.
                """
            )
        ),
        a(
            w(
                r"""
                Good list — and splitting errors from warnings now will save us later. I'd move the rules
                into `src/lib.rs` so `main` stays thin. Full file:

                ```rust
                use std::collections::HashSet;

                use serde::Deserialize;

                #[derive(Debug, Deserialize)]
                pub struct Row {
                    pub consignment: String,
                    pub collected: String,
                    pub postcode: String,
                    pub weight_kg: Option<f64>,
                    pub pieces: u32,
                    pub service: String,
                }

                #[derive(Debug, PartialEq)]
                pub enum Finding {
                    Error(String),
                    Warning(String),
                }

                const SERVICES: &[&str] = &["NEXT", "ECON", "TIMED", "SAT"];

                pub fn check(row: &Row, seen: &mut HashSet<String>, today: &str) -> Vec<Finding> {
                    let mut found = Vec::new();
                    match row.weight_kg {
                        None => found.push(Finding::Error("weight missing".into())),
                        Some(w) if w <= 0.0 => found.push(Finding::Error(format!("weight {w} kg"))),
                        Some(w) if w > 1000.0 => found.push(Finding::Warning(format!("heavy: {w} kg"))),
                        Some(_) => {}
                    }
                    if row.pieces == 0 {
                        found.push(Finding::Error("no pieces".into()));
                    }
                    if !looks_like_postcode(&row.postcode) {
                        found.push(Finding::Error(format!("postcode {:?}", row.postcode)));
                    }
                    if !seen.insert(row.consignment.clone()) {
                        found.push(Finding::Error(format!("duplicate {}", row.consignment)));
                    }
                    if row.collected.as_str() > today {
                        found.push(Finding::Error(format!("collected in the future: {}", row.collected)));
                    }
                    if !SERVICES.contains(&row.service.as_str()) {
                        found.push(Finding::Warning(format!("unknown service {}", row.service)));
                    }
                    found
                }

                fn looks_like_postcode(s: &str) -> bool {
                    let s = s.trim();
                    let Some((outward, inward)) = s.split_once(' ') else { return false };
                    (2..=4).contains(&outward.len())
                        && inward.len() == 3
                        && outward.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                        && inward.chars().next().is_some_and(|c| c.is_ascii_digit())
                }
                ```

                Comparing ISO dates as strings works because `YYYY-MM-DD` sorts lexically; if Hallam ever
                sends another format we'll parse properly. The postcode check is deliberately loose — it
                catches the garbage without trying to be the Royal Mail.
                """
            )
        ),
        u(
            "For errors I like thiserror enums in the library part and anyhow only at the top in main. Saw "
            "that split in a talk and it stuck.",
            key="rc-pref-thiserror",
        ),
        a(
            w(
                r"""
                That's the common split and a good one: typed errors where callers might match on them,
                `anyhow` where you only print them. New `src/error.rs`, in full:

                ```rust
                use std::path::PathBuf;

                #[derive(Debug, thiserror::Error)]
                pub enum ManifestError {
                    #[error("could not open {path}")]
                    Open {
                        path: PathBuf,
                        #[source]
                        source: std::io::Error,
                    },
                    #[error("row {line}: {source}")]
                    Row {
                        line: u64,
                        #[source]
                        source: csv::Error,
                    },
                    #[error("the file has no header row")]
                    NoHeader,
                }
                ```

                Add `thiserror = "1.0"` to `[dependencies]` and `pub mod error;` at the top of `lib.rs`.
                """
            )
        ),
        u(
            w(
                r"""
                ```
                error[E0277]: `?` couldn't convert the error to `ManifestError`
                  --> src/lib.rs:61:45
                   |
                61 |         let row: Row = result?;
                   |                              ^ the trait `From<csv::Error>` is not implemented for `ManifestError`
                ```
                """
            )
        ),
        a(
            w(
                r"""
                Right — `?` needs a `From<csv::Error>` and we deliberately didn't derive one, because the
                `Row` variant wants the line number too. So map it by hand at that spot:

                ```rust
                let line = reader.position().line();
                let row: Row = result.map_err(|source| ManifestError::Row { line, source })?;
                ```

                I could add `#[from]` on a bare `Csv(csv::Error)` variant instead, but then every error
                message loses the line, and the line is what the billing team will ask for first.
                """
            )
        ),
        u(
            "Also, whenever you suggest a commit message: imperative mood and under 50 characters. The repo "
            "has a hook that nags otherwise.",
            key="rc-rule-commit",
        ),
        a("Noted. For what we've got so far: `Add row checks and typed manifest errors` (40 characters)."),
        u("What should it exit with when rows are bad, vs when the file can't even be read? Cron cares."),
        a(
            w(
                r"""
                Give them distinct codes so the cron wrapper can tell "the data is bad" from "the tool
                couldn't run". Full `src/main.rs`:

                ```rust
                use std::collections::HashSet;
                use std::path::PathBuf;
                use std::process::ExitCode;

                use clap::Parser;
                use slipcheck::{check_file, Finding};

                const EXIT_OK: u8 = 0;
                const EXIT_IO: u8 = 2;
                const EXIT_INVALID: u8 = 3;

                #[derive(Parser, Debug)]
                #[command(name = "slipcheck", version, about)]
                struct Cli {
                    file: PathBuf,
                }

                fn main() -> ExitCode {
                    let cli = Cli::parse();
                    let mut seen = HashSet::new();
                    let findings = match check_file(&cli.file, &mut seen) {
                        Ok(findings) => findings,
                        Err(err) => {
                            eprintln!("slipcheck: {err:#}");
                            return ExitCode::from(EXIT_IO);
                        }
                    };
                    let errors = findings.iter().filter(|(_, f)| matches!(f, Finding::Error(_))).count();
                    for (line, finding) in &findings {
                        println!("line {line}: {finding:?}");
                    }
                    if errors > 0 { ExitCode::from(EXIT_INVALID) } else { ExitCode::from(EXIT_OK) }
                }
                ```

                Exit 1 is left alone on purpose: clap uses 2 for usage errors too, which is close enough to
                "couldn't run" that I'm happy sharing it.
                """
            ),
            key="rc-code-exit",
        ),
        u("Works. Ines (my manager) asked if it'll be ready for the ops demo on March 3.", key="rc-demo-old"),
        a(
            w(
                r"""
                Comfortably, if we keep the scope to what billing asked for. What I'd want by then:

                1. `validate` on Hallam files with the checks above
                2. a readable summary at the end instead of `Debug` output
                3. a release build running on whatever machine ops will use

                Extra carriers and anything clever can come after the demo.
                """
            )
        ),
        u("Sounds right. The Debug output is hideous, agreed."),
        a("It is. Next session, the summary table and a second subcommand for reports, if you want it."),
    ],
)

S3 = Session(
    "2026-01-22T18:30:00Z",
    [
        u(
            "I do want two commands: `validate` (what we have) and `report`, which prints counts per service "
            "and total weight, for the billing people who don't care about individual rows."
        ),
        a(
            w(
                r"""
                Subcommands with clap's derive API — full `src/main.rs`:

                ```rust
                use std::path::PathBuf;
                use std::process::ExitCode;

                use clap::{Parser, Subcommand};
                use slipcheck::{EXIT_INVALID, EXIT_IO};

                #[derive(Parser, Debug)]
                #[command(name = "slipcheck", version, about)]
                struct Cli {
                    #[command(subcommand)]
                    command: Command,
                }

                #[derive(Subcommand, Debug)]
                enum Command {
                    /// List every bad row
                    Validate { file: PathBuf },
                    /// Counts per service and total weight
                    Report { file: PathBuf },
                }

                fn main() -> ExitCode {
                    let cli = Cli::parse();
                    let outcome = match &cli.command {
                        Command::Validate { file } => slipcheck::validate(file),
                        Command::Report { file } => slipcheck::report(file).map(|()| true),
                    };
                    match outcome {
                        Ok(true) => ExitCode::SUCCESS,
                        Ok(false) => ExitCode::from(EXIT_INVALID),
                        Err(err) => {
                            eprintln!("slipcheck: {err:#}");
                            ExitCode::from(EXIT_IO)
                        }
                    }
                }
                ```

                `validate` now returns `Ok(false)` when it found errors; the printing moved into the
                library so both commands format the same way, and the exit-code constants moved to `lib.rs`
                as `pub const` so the integration tests can use them.
                """
            )
        ),
        u(
            "Before you reach for a crate for the table: I'm allergic to long dependency trees. If std can "
            "do it, skip the crate.",
            key="rc-pref-deps",
        ),
        a(
            w(
                r"""
                Fair — `format!` width specifiers are enough for a plain table. Full `src/report.rs`:

                ```rust
                use std::collections::BTreeMap;

                pub struct Totals {
                    pub rows: usize,
                    pub weight_kg: f64,
                }

                pub fn render(by_service: &BTreeMap<String, Totals>) -> String {
                    let mut out = String::new();
                    out.push_str(&format!("{:<10} {:>8} {:>12}\n", "service", "rows", "weight kg"));
                    let mut rows = 0;
                    let mut weight = 0.0;
                    for (service, t) in by_service {
                        out.push_str(&format!("{:<10} {:>8} {:>12.1}\n", service, t.rows, t.weight_kg));
                        rows += t.rows;
                        weight += t.weight_kg;
                    }
                    out.push_str(&format!("{:<10} {:>8} {:>12.1}\n", "total", rows, weight));
                    out
                }
                ```

                `BTreeMap` keeps the services sorted, so the output is stable from run to run — handy when
                someone diffs two reports.
                """
            )
        ),
        u(
            w(
                r"""
                Looks a bit ragged when a service code is long — we have one called `TIMED-0900-SAT`:

                ```
                service        rows    weight kg
                ECON            412       5120.3
                TIMED-0900-SAT       17        201.0
                total           429       5321.3
                ```
                """
            )
        ),
        a(
            w(
                r"""
                The `10` is a minimum width, not a fixed one, so long names push the rest over. Measure the
                longest name first and use it as the width — still no crate. Full `src/report.rs`:

                ```rust
                use std::collections::BTreeMap;

                pub struct Totals {
                    pub rows: usize,
                    pub weight_kg: f64,
                }

                pub fn render(by_service: &BTreeMap<String, Totals>) -> String {
                    let width = by_service.keys().map(|s| s.len()).chain(["service".len()]).max().unwrap_or(7);
                    let mut out = format!("{:<width$} {:>8} {:>12}\n", "service", "rows", "weight kg");
                    let (mut rows, mut weight) = (0, 0.0);
                    for (service, t) in by_service {
                        out += &format!("{:<width$} {:>8} {:>12.1}\n", service, t.rows, t.weight_kg);
                        rows += t.rows;
                        weight += t.weight_kg;
                    }
                    out += &format!("{:<width$} {:>8} {:>12.1}\n", "total", rows, weight);
                    out
                }
                ```

                The `unwrap_or` is on an iterator that always has at least one item (the header), so it
                never falls back — but it isn't an `unwrap()`, so no 3am pages.
                """
            )
        ),
        u(
            "Gareth on the night shift has been trying it. He wants a strict mode where warnings count as "
            "errors, and he wants to turn it on in the cron job through an environment variable rather than "
            "editing the command line.",
            key="rc-gareth-strict",
        ),
        a(
            w(
                r"""
                clap can read a flag from the environment directly. Add `"env"` to clap's feature list in
                `Cargo.toml`, then — full `src/main.rs`:

                ```rust
                use std::path::PathBuf;
                use std::process::ExitCode;

                use clap::{Parser, Subcommand};
                use slipcheck::{EXIT_INVALID, EXIT_IO};

                #[derive(Parser, Debug)]
                #[command(name = "slipcheck", version, about)]
                struct Cli {
                    /// Treat warnings as errors
                    #[arg(long, global = true, env = "SLIPCHECK_STRICT")]
                    strict: bool,
                    #[command(subcommand)]
                    command: Command,
                }

                #[derive(Subcommand, Debug)]
                enum Command {
                    Validate { file: PathBuf },
                    Report { file: PathBuf },
                }

                fn main() -> ExitCode {
                    let cli = Cli::parse();
                    let outcome = match &cli.command {
                        Command::Validate { file } => slipcheck::validate(file, cli.strict),
                        Command::Report { file } => slipcheck::report(file).map(|()| true),
                    };
                    match outcome {
                        Ok(true) => ExitCode::SUCCESS,
                        Ok(false) => ExitCode::from(EXIT_INVALID),
                        Err(err) => {
                            eprintln!("slipcheck: {err:#}");
                            ExitCode::from(EXIT_IO)
                        }
                    }
                }
                ```

                For a `bool` flag clap accepts `true`/`false`, `1`/`0`, `yes`/`no` from the variable, so
                Gareth can set it to `1` in the crontab.
                """
            ),
            key="rc-code-strict",
        ),
        u(
            "First release build: cargo build --release, binary is 8.4 MB. Seems big for what it does?",
            key="rc-size-old",
        ),
        a(
            w(
                r"""
                A lot of that is debug symbols and the panic-unwinding machinery, not your code. Rust
                release builds keep symbol tables by default. Quick check:

                ```sh
                ls -lh target/release/slipcheck
                strip target/release/slipcheck && ls -lh target/release/slipcheck
                ```

                We can bake that into a release profile later along with LTO; I'd leave it until the code
                settles, because it also makes builds slower.
                """
            )
        ),
        u("Fine by me. It's not like the Pi is short on disk."),
        a(
            "Right — size only matters if you're copying it around a lot. Which Pi, by the way? "
            "That'll matter for how we build."
        ),
        u("I'll tell you next time, have to check with IT. Thanks for today."),
        a("Any time."),
    ],
)

S4 = Session(
    "2026-01-29T19:10:00Z",
    [
        u(
            w(
                r"""
                Second carrier: Nordlink. They send JSON, one array per file, and they've named things their
                own way. Sample (trimmed):

                ```json
                [
                  {"consignment_ref": "NL-7781-A", "pickup": "2026-01-27", "dest_postcode": "HU3 4RT",
                   "gross_weight": 8.5, "parcels": 1, "product": "ECON"},
                  {"consignment_ref": "NL-7782-A", "pickup": "2026-01-27", "dest_postcode": "HU3 4RT",
                   "gross_weight": null, "parcels": 2, "product": "NEXT"}
                ]
                ```
                """
            ),
            key="rc-carrier-nordlink",
        ),
        a(
            w(
                r"""
                serde can map their names onto our `Row` without a second struct: `rename` on each field
                for the JSON side, and the CSV side keeps the Hallam names via `alias`. Add `serde_json =
                "1.0"` to the dependencies. Full `src/row.rs`:

                ```rust
                use serde::Deserialize;

                /// One consignment, whichever carrier sent it.
                #[derive(Debug, Deserialize)]
                pub struct Row {
                    #[serde(alias = "consignment_ref")]
                    pub consignment: String,
                    #[serde(alias = "pickup")]
                    pub collected: String,
                    #[serde(alias = "dest_postcode")]
                    pub postcode: String,
                    #[serde(alias = "gross_weight")]
                    pub weight_kg: Option<f64>,
                    #[serde(alias = "parcels")]
                    pub pieces: u32,
                    #[serde(alias = "product")]
                    pub service: String,
                }

                pub fn read_nordlink(path: &std::path::Path) -> Result<Vec<Row>, crate::error::ManifestError> {
                    let file = std::fs::File::open(path)
                        .map_err(|source| crate::error::ManifestError::Open { path: path.into(), source })?;
                    let rows = serde_json::from_reader(std::io::BufReader::new(file))?;
                    Ok(rows)
                }
                ```

                I used `alias` rather than `rename` so one struct reads both: the Nordlink id arrives as
                `consignment_ref` and lands in `consignment`, the same field Hallam's column fills. You'll
                need a `Json(#[from] serde_json::Error)` variant in `ManifestError` for that last `?`.
                """
            ),
            key="rc-code-rename",
        ),
        u(
            w(
                r"""
                added the variant, builds. but on a real file:

                ```
                slipcheck: invalid type: null, expected f64 at line 14 column 22
                ```

                I thought Option<f64> handled null?
                """
            )
        ),
        a(
            w(
                r"""
                It does — which makes me think the file you ran isn't hitting `Row` at all. Line 14 column
                22 in a pretty-printed Nordlink file is likely inside a nested object. Can you paste lines
                10–16?
                """
            )
        ),
        u(
            w(
                r"""
                ```
                    "product": "NEXT",
                    "dims": {
                      "length_cm": 40,
                      "width_cm": null,
                ```
                oh. they added a dims block. we don't even use it
                """
            )
        ),
        a(
            w(
                r"""
                There it is: `dims` isn't in our struct, so serde should ignore it — unless something in the
                chain is strict. Check whether you added `#[serde(deny_unknown_fields)]` when you were
                experimenting; with that, serde tries to account for `dims`, and the error surfaces at the
                first value it can't place. Remove it and unknown fields are skipped silently, which is what
                we want for a carrier that adds fields without telling anyone.
                """
            )
        ),
        u("Yep, I had deny_unknown_fields in there from a tutorial. Gone now, file reads fine."),
        a("Good. If you ever want to *know* when Nordlink adds fields, we can log unknown keys as a warning instead."),
        u(
            "Different thing. Some Hallam files are missing their first consignment — report says 1,199 rows "
            "where billing counts 1,200. Not every file, maybe one in five."
        ),
        a(
            w(
                r"""
                I'd bet those are the files that come *without* a header row. `csv::ReaderBuilder` assumes
                the first record is a header unless you tell it otherwise, so in a headerless file the first
                consignment gets eaten as column names — no error, just one row short. And because we
                deserialize by name, the next rows would fail... unless the header we expect matches by
                accident. Can you check one of the short files with `head -2`?
                """
            ),
            key="rc-fact-headers",
        ),
        u(
            w(
                r"""
                ```
                $ head -2 HALLAM_20260126_B.csv
                HX-21877;2026-01-26;BD7 1DP;3.20;1;ECON
                HX-21878;2026-01-26;BD7 1DP;4.10;1;ECON
                ```
                yep no header. and we deserialize... by position? It didn't fail
                """
            )
        ),
        a(
            w(
                r"""
                It didn't fail because with `has_headers(true)` and a struct, csv matches by the header it
                read — here the "header" is the first data row, none of whose values match our field names,
                so… it should have failed. Unless `flexible` or a positional fallback is on; either way,
                let's stop guessing and detect it. Full `src/hallam.rs`:

                ```rust
                use std::fs::File;
                use std::io::{BufRead, BufReader, Seek, SeekFrom};
                use std::path::Path;

                use crate::error::ManifestError;
                use crate::row::Row;

                const HEADER: &str = "consignment;collected;postcode;weight_kg;pieces;service";

                pub fn open(path: &Path) -> Result<csv::Reader<File>, ManifestError> {
                    let open = |path: &Path| File::open(path).map_err(|source| ManifestError::Open {
                        path: path.into(),
                        source,
                    });
                    let mut file = open(path)?;
                    let mut first = String::new();
                    BufReader::new(&mut file)
                        .read_line(&mut first)
                        .map_err(|source| ManifestError::Open { path: path.into(), source })?;
                    file.seek(SeekFrom::Start(0))
                        .map_err(|source| ManifestError::Open { path: path.into(), source })?;
                    let has_header = first.trim_end() == HEADER;
                    let mut builder = csv::ReaderBuilder::new();
                    builder.delimiter(b';').has_headers(has_header);
                    let mut reader = builder.from_reader(file);
                    if !has_header {
                        reader.set_headers(csv::StringRecord::from(HEADER.split(';').collect::<Vec<_>>()));
                    }
                    Ok(reader)
                }
                ```

                When the header is missing we supply it ourselves, so deserializing by name still works and
                the first consignment is kept.
                """
            )
        ),
        u("1,200 rows. Billing will be thrilled, they've been adding that row back by hand for weeks."),
        a("Ha — worth telling them, that's the kind of thing that makes people trust a new tool."),
        u(
            "Side note, since you asked about the hardware: the tool'll actually run on the little box in the "
            "Coldharbour depot — a Raspberry Pi 3 under the dispatch desk, 32-bit Raspbian. Can I build for "
            "that from my laptop?",
            key="rc-depot",
        ),
        a(
            w(
                r"""
                Yes. A Pi 3 on 32-bit Raspbian is `armv7-unknown-linux-gnueabihf`. The least painful route
                is `cross`, which runs the build in a container that already has the linker and C
                libraries:

                ```sh
                cargo install cross --locked
                cross build --release --target armv7-unknown-linux-gnueabihf
                scp target/armv7-unknown-linux-gnueabihf/release/slipcheck pi@dispatch-pi:~/bin/
                ```

                Plain `rustup target add` + `cargo build --target` also works, but then you need an ARM
                linker installed and configured in `.cargo/config.toml` yourself.
                """
            ),
            key="rc-target-old",
        ),
        u("cross wants docker and I have podman on this laptop. does that work or do I need docker?"),
        a(
            w(
                r"""
                Podman works. Tell cross which engine to use:

                ```sh
                export CROSS_CONTAINER_ENGINE=podman
                ```

                Put it in your shell profile, then run the same `cross build` line as before. If podman is
                rootless and you hit permission errors on `target/`, run `cargo clean` once — a previous
                build as root leaves files it can't overwrite.
                """
            )
        ),
        u("Built and copied. It runs on the Pi! Slowly, but it runs."),
        a("Slowly how? If you can time it on a real nightly file, we'll know what we're up against."),
    ],
)

S5 = Session(
    "2026-02-05T20:00:00Z",
    [
        u(
            "Timing question answered, sort of: Ines says on the nightly Hallam file (about 1.2 million rows) "
            "it has to finish in under 2 seconds on the depot box, or the ops people won't wait for it "
            "before they start loading vans.",
            key="rc-fact-budget",
        ),
        a(
            w(
                r"""
                A clear target, good. Before optimising anything let's measure properly with criterion, so
                we know whether a change helped. Add to `Cargo.toml`:

                ```toml
                [dev-dependencies]
                criterion = "0.5"

                [[bench]]
                name = "parse"
                harness = false
                ```

                Full `benches/parse.rs`:

                ```rust
                use criterion::{criterion_group, criterion_main, Criterion, Throughput};

                fn parse_hallam(c: &mut Criterion) {
                    let data = std::fs::read("tests/fixtures/hallam_10k.csv").expect("fixture present");
                    let mut group = c.benchmark_group("parse");
                    group.throughput(Throughput::Elements(10_000));
                    group.bench_function("parse_hallam_10k", |b| {
                        b.iter(|| slipcheck::check_bytes(&data, false).expect("fixture parses"))
                    });
                    group.finish();
                }

                criterion_group!(benches, parse_hallam);
                criterion_main!(benches);
                ```

                (`expect` in a bench is test code, so I think that's within your rule.) You'll need a
                `check_bytes` entry point in `lib.rs` that works on a byte slice, so the bench measures
                parsing and checking, not disk.
                """
            )
        ),
        u("Dev-dependency only, so it doesn't end up in the binary? Then fine."),
        a(
            "Right — dev-dependencies are only built for tests, examples and benches. "
            "The release binary never sees criterion."
        ),
        u(
            w(
                r"""
                ```
                parse/parse_hallam_10k  time:   [71.218 ms 71.602 ms 72.093 ms]
                                        thrpt:  [138.71 Kelem/s 139.66 Kelem/s 140.41 Kelem/s]
                ```
                so roughly 140k rows/s on my laptop. The Pi will be a lot worse. 1.2M rows would be ~9s here.
                """
            ),
            key="rc-speed-old",
        ),
        a(
            w(
                r"""
                That's slow for Rust, which is good news: there's easy speed on the table. The main cost is
                almost certainly allocation — every row allocates six `String`s through `deserialize`, plus
                the `consignment.clone()` into the duplicate set. Two changes:

                1. Reuse one `csv::ByteRecord` for every row of the file instead of a fresh record per row.
                2. Deserialize into a borrowed row (`&str` fields) that points into that record.

                ```rust
                #[derive(Debug, serde::Deserialize)]
                pub struct RowRef<'a> {
                    pub consignment: &'a str,
                    pub collected: &'a str,
                    pub postcode: &'a str,
                    pub weight_kg: Option<f64>,
                    pub pieces: u32,
                    pub service: &'a str,
                }

                let headers = reader.byte_headers()?.clone();
                let mut record = csv::ByteRecord::new();
                while reader.read_byte_record(&mut record)? {
                    let row: RowRef = record.deserialize(Some(&headers))?;
                    findings.extend(check(&row, &mut seen, today));
                }
                ```

                The duplicate set still needs owned strings, but only one per row instead of seven.
                """
            )
        ),
        u("I thought you were giving me whole files"),
        a(
            w(
                r"""
                You're right, sorry — that was a sketch to explain the idea, and then I left it as one.
                Here's the full `src/check.rs`:

                ```rust
                use std::collections::HashSet;

                use crate::error::ManifestError;
                use crate::Finding;

                #[derive(Debug, serde::Deserialize)]
                pub struct RowRef<'a> {
                    pub consignment: &'a str,
                    pub collected: &'a str,
                    pub postcode: &'a str,
                    pub weight_kg: Option<f64>,
                    pub pieces: u32,
                    pub service: &'a str,
                }

                pub fn check_reader<R: std::io::Read>(
                    reader: &mut csv::Reader<R>,
                    today: &str,
                ) -> Result<Vec<(u64, Finding)>, ManifestError> {
                    let headers = reader
                        .byte_headers()
                        .map_err(|source| ManifestError::Row { line: 1, source })?
                        .clone();
                    let mut record = csv::ByteRecord::new();
                    let mut seen: HashSet<String> = HashSet::new();
                    let mut findings = Vec::new();
                    loop {
                        let line = reader.position().line();
                        match reader.read_byte_record(&mut record) {
                            Ok(false) => break,
                            Ok(true) => {}
                            Err(source) => return Err(ManifestError::Row { line, source }),
                        }
                        let row: RowRef = record
                            .deserialize(Some(&headers))
                            .map_err(|source| ManifestError::Row { line, source })?;
                        for finding in crate::rules::check(&row, &mut seen, today) {
                            findings.push((line, finding));
                        }
                    }
                    Ok(findings)
                }
                ```

                `rules::check` takes `&RowRef` now; the only change inside it is
                `seen.insert(row.consignment.to_owned())`.
                """
            )
        ),
        u(
            w(
                r"""
                ```
                error: lifetime may not live long enough
                  --> src/check.rs:31:25
                   |
                23 |     reader: &mut csv::Reader<R>,
                   |             - let's call the lifetime of this reference `'1`
                ...
                31 |         let row: RowRef = record
                   |                  ^^^^^^ type annotation requires that `record` is borrowed for `'static`
                ```
                """
            )
        ),
        a(
            w(
                r"""
                That's `rules::check` — I'd guess its signature says `row: &RowRef<'static>` or is missing
                the lifetime so the compiler picked one for you. Make it generic over the lifetime:

                ```rust
                pub fn check<'a>(row: &RowRef<'a>, seen: &mut HashSet<String>, today: &str) -> Vec<Finding>
                ```

                The row only has to live as long as the call, which is exactly what the loop gives it.
                """
            )
        ),
        u("That was it, I'd written RowRef<'static> because the compiler suggested it earlier. lesson learned"),
        a(
            "The compiler's `'static` suggestion is the classic trap — it's usually the one fix that makes the "
            "error go away in one place and come back somewhere worse."
        ),
        u("Should I run the benches in CI too?"),
        a(
            w(
                r"""
                I wouldn't gate merges on them: shared CI runners vary by 20–30% from run to run, so you'd
                get red builds from noise. Run them locally before and after a change you expect to matter,
                and keep criterion's saved baselines (`--save-baseline main`, then `--baseline main`) for
                comparisons across branches.
                """
            )
        ),
        u("Running the bench again tomorrow, the laptop fan is screaming and the kids need the wifi for homework."),
        a("Fair. When you do, run it twice — criterion compares against the previous run and tells you the change."),
    ],
)

S6 = Session(
    "2026-02-09T18:45:00Z",
    [
        u(
            "Good news and a question. The ByteRecord rewrite landed and the bench says parse_hallam_10k is "
            "down to about 24 ms, so roughly 410k rows/s on the laptop, criterion says -66%. Gareth ran the "
            "armv7 build on the Pi with the nightly file and it took 3.4s, so we're still over Ines's limit. "
            "Question: is there more to get out of the build itself, before I start rewriting code again?",
            key="rc-speed-new",
        ),
        a(
            w(
                r"""
                Yes — the default release profile leaves some speed and a lot of size on the table. Full
                `Cargo.toml` with a tuned profile:

                ```toml
                [package]
                name = "slipcheck"
                version = "0.2.0"
                edition = "2021"

                [dependencies]
                clap = { version = "4.4", features = ["derive", "env"] }
                serde = { version = "1.0", features = ["derive"] }
                serde_json = "1.0"
                csv = "1.3"
                anyhow = "1.0"
                thiserror = "1.0"

                [dev-dependencies]
                criterion = "0.5"

                [[bench]]
                name = "parse"
                harness = false

                [profile.release]
                lto = "fat"
                codegen-units = 1
                panic = "abort"
                strip = true
                ```

                - `lto` and `codegen-units = 1` let the optimiser see across crates — slower builds, faster code.
                - `panic = "abort"` drops the unwinding tables; with no `unwrap()` in the code, a panic
                  should be a genuine bug anyway.
                - `strip = true` removes the symbols, which is most of the size.
                """
            ),
            key="rc-code-profile",
        ),
        u(
            "Binary's down to 3.1 MB after stripping symbols. Took 40s longer to build but who cares.",
            key="rc-size-new",
        ),
        a(
            "That's about what I'd expect. If build time ever bothers you during development, the tuned "
            "profile only applies to `--release`; `cargo build` stays quick."
        ),
        u("Pi run with the new profile: nightly file in 2.6s. Closer. Still not under.", key="rc-pi3-time"),
        a(
            w(
                r"""
                Then the remaining lever is the hardware: a Pi 3 has four cores and we're using one. The
                checks are per row except the duplicate check, so we can split the file into chunks, check
                them on threads, and merge the duplicate sets afterwards. `std::thread::scope` does this
                without any crate:

                ```rust
                use std::collections::HashMap;
                use std::thread;

                pub fn check_parallel(rows: &[RowRef<'_>], today: &str) -> Vec<(usize, Finding)> {
                    let threads = thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
                    let size = rows.len().div_ceil(threads).max(1);
                    let mut findings: Vec<(usize, Finding)> = thread::scope(|s| {
                        let handles: Vec<_> = rows
                            .chunks(size)
                            .enumerate()
                            .map(|(i, chunk)| s.spawn(move || crate::rules::check_chunk(chunk, i * size, today)))
                            .collect();
                        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
                    });
                    let mut first_seen: HashMap<&str, usize> = HashMap::new();
                    for (index, row) in rows.iter().enumerate() {
                        if let Some(first) = first_seen.insert(row.consignment, index) {
                            findings.push((index, Finding::Error(format!("duplicate of row {first}"))));
                        }
                    }
                    findings.sort_by_key(|(index, _)| *index);
                    findings
                }
                ```

                It needs the rows in memory (borrowed from one big buffer), which at 1.2M rows is roughly
                the file size again — fine on a Pi with 1 GB.
                """
            )
        ),
        u("`h.join().unwrap_or_default()` — doesn't that hide a thread that panicked?"),
        a(
            w(
                r"""
                Good catch — it does, silently, and with `panic = "abort"` a panic would kill the process
                before we got there anyway, so it's both hiding and pointless. Better to be explicit that
                the join can't return an error under abort:

                ```rust
                handles
                    .into_iter()
                    .flat_map(|h| match h.join() {
                        Ok(found) => found,
                        Err(_) => unreachable!("panic = abort: a panicking thread ends the process"),
                    })
                    .collect()
                ```

                Same behaviour, but the reason is written down instead of buried in a default.
                """
            )
        ),
        u("ok. I'll try this on the Pi later this week. Sourdough needs feeding, brb never"),
        a("Priorities. Let me know the Pi number when you have it."),
    ],
)

S7 = Session(
    "2026-02-16T19:20:00Z",
    [
        u(
            "Bunch of things. First, the ops demo is on the 24th now — Ines pulled it forward because of the "
            "quarter-end freeze, so we've lost a week, which I'm choosing not to panic about. Second, "
            "I never got to try the threaded version on the Pi 3: IT swapped it for a Pi 5 with 64-bit "
            "Raspberry Pi OS, so I'm building for aarch64-unknown-linux-gnu now. First run on the new box, "
            "single-threaded, nightly file in 0.9s! So we're under the limit without the threads at all. "
            "Keep them or bin them?",
            key="rc-s7-update",
        ),
        a(
            w(
                r"""
                Congratulations on the hardware upgrade doing the optimising for you. I'd keep the threaded
                path but behind a flag that defaults to off: it's tested code, and the files will only get
                bigger, but single-threaded output is easier to reason about when a row is wrong.

                ```rust
                /// Check chunks of the file on all cores (rows are still reported in order)
                #[arg(long, global = true)]
                parallel: bool,
                ```

                For the new target, `cross` handles it the same way:

                ```sh
                cross build --release --target aarch64-unknown-linux-gnu
                ```

                and the binary lands in `target/aarch64-unknown-linux-gnu/release/`. You can delete the
                armv7 toolchain image from podman if you want the disk back (`podman image ls | grep
                cross`).
                """
            )
        ),
        u("Just the flag hunk? I'll take it this once, it's two lines."),
        a("Thanks — I'll go back to complete files next time. It goes at the top of `Cli`, next to `strict`."),
        u(
            w(
                r"""
                Now the annoying one. Third carrier, Vantage Parcel, sends fixed-width text files, because of
                course they do. From their spec PDF (columns are 1-based, inclusive):

                ```
                1-12   consignment
                13-20  collected (YYYYMMDD)
                21-28  postcode, left-aligned, space padded
                29-36  weight in grams, zero padded
                37-39  pieces
                40-44  service
                ```
                """
            ),
            key="rc-carrier-vantage",
        ),
        a(
            w(
                r"""
                Fixed-width is just slicing, so no crate needed. Full `src/vantage.rs`:

                ```rust
                use crate::error::ManifestError;

                pub struct VantageRow {
                    pub consignment: String,
                    pub collected: String,
                    pub postcode: String,
                    pub weight_kg: Option<f64>,
                    pub pieces: u32,
                    pub service: String,
                }

                fn field(line: &str, from: usize, to: usize) -> &str {
                    line.get(from..to).unwrap_or("").trim()
                }

                pub fn parse_line(line: &str, number: u64) -> Result<VantageRow, ManifestError> {
                    let date = field(line, 12, 20);
                    let grams: Option<u64> = field(line, 28, 36).parse().ok();
                    Ok(VantageRow {
                        consignment: field(line, 0, 12).to_owned(),
                        collected: format!("{}-{}-{}", &date[..4], &date[4..6], &date[6..]),
                        postcode: field(line, 20, 28).to_owned(),
                        weight_kg: grams.map(|g| g as f64 / 1000.0),
                        pieces: field(line, 36, 39)
                            .parse()
                            .map_err(|_| ManifestError::Field { line: number, name: "pieces" })?,
                        service: field(line, 39, 44).to_owned(),
                    })
                }
                ```

                Rust slices are 0-based and end-exclusive, so spec columns `13-20` become `12..20`. Weight
                arrives in grams, and we convert to kilograms so the rules don't care who sent the row.
                """
            )
        ),
        u(
            w(
                r"""
                ```
                ---- vantage::tests::short_line stdout ----
                thread 'vantage::tests::short_line' panicked at src/vantage.rs:19:41:
                byte index 4 is out of range of ``
                ```
                the test feeds it a truncated line
                """
            )
        ),
        a(
            w(
                r"""
                That's my `&date[..4]` — on a short line `date` is empty and indexing panics. Exactly the
                kind of thing your rule is there for; slicing is an `unwrap()` in disguise. Full file again,
                with the date checked properly:

                ```rust
                use crate::error::ManifestError;

                pub struct VantageRow {
                    pub consignment: String,
                    pub collected: String,
                    pub postcode: String,
                    pub weight_kg: Option<f64>,
                    pub pieces: u32,
                    pub service: String,
                }

                fn field(line: &str, from: usize, to: usize) -> &str {
                    line.get(from..to).unwrap_or("").trim()
                }

                fn iso_date(raw: &str, number: u64) -> Result<String, ManifestError> {
                    let bad = || ManifestError::Field { line: number, name: "collected" };
                    if raw.len() != 8 || !raw.bytes().all(|b| b.is_ascii_digit()) {
                        return Err(bad());
                    }
                    Ok(format!("{}-{}-{}", &raw[..4], &raw[4..6], &raw[6..]))
                }

                pub fn parse_line(line: &str, number: u64) -> Result<VantageRow, ManifestError> {
                    let grams: Option<u64> = field(line, 28, 36).parse().ok();
                    Ok(VantageRow {
                        consignment: field(line, 0, 12).to_owned(),
                        collected: iso_date(field(line, 12, 20), number)?,
                        postcode: field(line, 20, 28).to_owned(),
                        weight_kg: grams.map(|g| g as f64 / 1000.0),
                        pieces: field(line, 36, 39)
                            .parse()
                            .map_err(|_| ManifestError::Field { line: number, name: "pieces" })?,
                        service: field(line, 39, 44).to_owned(),
                    })
                }
                ```

                The slices inside `iso_date` are safe now: we've checked the length is 8 and every byte is
                an ASCII digit, so each index is on a character boundary.
                """
            )
        ),
        u("Tests green. How does slipcheck know which parser to use? Right now I pass --format."),
        a(
            w(
                r"""
                You could sniff it: JSON starts with `[` (after whitespace), Hallam has semicolons in the
                first line, Vantage lines are exactly 44 characters with no separators. But carriers'
                files arrive with their names on them — `HALLAM_*.csv`, `NL*.json`, `VPX*.txt` — and a
                filename rule is easier to explain to Gareth than a heuristic. I'd do: `--format` wins if
                given, otherwise the filename prefix, otherwise an error telling you to pass `--format`.
                """
            )
        ),
        u("Filename prefix it is. Ops name them consistently, it's the one thing they're religious about."),
        a("Then that's the cheapest reliable signal we've got. I'll write it up next time with the full `main.rs`."),
    ],
)

S8 = Session(
    "2026-02-23T20:30:00Z",
    [
        u(
            "Housekeeping first. Merged dependabot's bump this morning, so we're on clap 4.5.4 now. CI went "
            "red though:",
            key="rc-clap-new",
        ),
        u(
            w(
                r"""
                ```
                error: package `clap_builder v4.5.2` cannot be built because it requires rustc 1.74 or newer,
                while the currently active rustc version is 1.72.1
                ```
                """
            )
        ),
        a(
            w(
                r"""
                The 4.5 line raised clap's minimum supported Rust version to 1.74, and your CI runner is
                on 1.72.1. Two options: pin clap back to 4.4, or move CI to a newer toolchain. I'd move CI —
                staying on old Rust to keep one dependency happy gets worse every month. Pin it in the repo
                so laptop and CI agree. Full `rust-toolchain.toml`:

                ```toml
                [toolchain]
                channel = "1.76"
                components = ["rustfmt", "clippy"]
                targets = ["aarch64-unknown-linux-gnu"]
                ```

                rustup reads this on every `cargo` call and installs the toolchain if it's missing, so the
                CI job just needs rustup itself, which the runner image has.
                """
            )
        ),
        u("Green again. Does 4.5 change anything I'd notice?"),
        a(
            w(
                r"""
                Mostly the help output: 4.5 styles `--help` with colours and bold headings by default when
                it writes to a terminal. Piped output stays plain. If ops find the colours noisy:

                ```rust
                #[command(name = "slipcheck", version, about, styles = clap::builder::Styles::plain())]
                ```

                Nothing in your derive code needed changing — that's why the bump compiled.
                """
            )
        ),
        u(
            "Colours are fine. Ops will think it's fancy. Can we get tab completion for bash? Gareth keeps "
            "typo-ing validate."
        ),
        a(
            w(
                r"""
                That one really wants the `clap_complete` crate — it generates the scripts from your
                `Cli` definition, so they never go stale. It's small and from the clap maintainers, but
                it is a dependency, so your call. If yes, a hidden subcommand is the usual way. Full
                `src/main.rs`:

                ```rust
                use std::io;
                use std::path::PathBuf;
                use std::process::ExitCode;

                use clap::{CommandFactory, Parser, Subcommand};
                use clap_complete::Shell;
                use slipcheck::{EXIT_INVALID, EXIT_IO};

                #[derive(Parser, Debug)]
                #[command(name = "slipcheck", version, about)]
                struct Cli {
                    #[arg(long, global = true, env = "SLIPCHECK_STRICT")]
                    strict: bool,
                    #[arg(long, global = true)]
                    parallel: bool,
                    #[command(subcommand)]
                    command: Command,
                }

                #[derive(Subcommand, Debug)]
                enum Command {
                    Validate { file: PathBuf, #[arg(long)] format: Option<slipcheck::Format> },
                    Report { file: PathBuf, #[arg(long)] format: Option<slipcheck::Format> },
                    /// Print a shell completion script
                    #[command(hide = true)]
                    Completions { shell: Shell },
                }

                fn main() -> ExitCode {
                    let cli = Cli::parse();
                    let opts = slipcheck::Options { strict: cli.strict, parallel: cli.parallel };
                    let outcome = match &cli.command {
                        Command::Validate { file, format } => slipcheck::validate(file, *format, &opts),
                        Command::Report { file, format } => slipcheck::report(file, *format, &opts).map(|()| true),
                        Command::Completions { shell } => {
                            clap_complete::generate(*shell, &mut Cli::command(), "slipcheck", &mut io::stdout());
                            Ok(true)
                        }
                    };
                    match outcome {
                        Ok(true) => ExitCode::SUCCESS,
                        Ok(false) => ExitCode::from(EXIT_INVALID),
                        Err(err) => {
                            eprintln!("slipcheck: {err:#}");
                            ExitCode::from(EXIT_IO)
                        }
                    }
                }
                ```

                Then on the Pi: `slipcheck completions bash > ~/.local/share/bash-completion/completions/slipcheck`.
                `Format` picks the parser from the filename when `--format` isn't given, as we discussed.
                """
            ),
            key="rc-code-completions",
        ),
        u("Yes to clap_complete, that one's worth it. Installed on the Pi, Gareth is delighted."),
        a("Good. One fewer typo-induced 3am message."),
        u("Demo's tomorrow. Bit nervous, ops people are blunt and they've seen three tools come and go. Any advice?"),
        a(
            w(
                r"""
                Some things that usually work with a sceptical ops audience:

                - Start with their problem, not the tool: "billing has been re-adding a row by hand from
                  one in five Hallam files" lands better than any feature list.
                - Run it live on last night's real file, on the depot box, and let the timing speak.
                - Show a failure: a bad row, the line number, the exit code the cron job sees.
                - Say plainly what it doesn't do yet, and ask what they'd want next — then write it down
                  in front of them.

                And keep it short. Ten minutes and questions beats thirty minutes of slides.
                """
            )
        ),
        u("Ten minutes, real file, show a failure. Got it. Wish me luck."),
        a("Good luck — you've got a genuinely useful tool to show."),
    ],
)

S9 = Session(
    "2026-02-25T17:50:00Z",
    [
        u(
            "Demo went well!! Real file, 0.9s, showed them a Vantage row with a missing weight and the exit "
            "code. The loudest of the ops leads said 'fine, but can it fix them too?' — they want a fix "
            "subcommand that rewrites the postcodes it can repair (lowercase, missing space) and leaves the "
            "rest for a human.",
            key="rc-ops-fix",
        ),
        a(
            w(
                r"""
                That's the best possible outcome of a demo: they asked for more. Let's be careful with
                `fix`, though, because it's the first command that writes. My suggestions:

                1. Only repairs that are unambiguous: uppercase, trim, insert the space before the last
                   three characters.
                2. Never overwrite in place directly — write a new file next to it, then rename over the
                   original, so a crash halfway leaves the original intact.
                3. A way to see what it would change without changing anything.

                The repair itself:

                ```rust
                /// A postcode we can repair without guessing, or None.
                pub fn repair_postcode(raw: &str) -> Option<String> {
                    let compact: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
                    let compact = compact.to_ascii_uppercase();
                    if !(5..=7).contains(&compact.len()) || !compact.is_ascii() {
                        return None;
                    }
                    let (outward, inward) = compact.split_at(compact.len() - 3);
                    let fixed = format!("{outward} {inward}");
                    (fixed != raw).then_some(fixed)
                }
                ```

                `split_at` is safe here because we've checked the string is ASCII, so every byte is a
                character boundary.
                """
            )
        ),
        u("ok and the preview bit?"),
        a(
            w(
                r"""
                A `--dry-run` flag on `fix` that prints each change as `line 41: "ls115qt" -> "LS11 5QT"`
                and writes nothing. Full `src/fix.rs`:

                ```rust
                use std::fs;
                use std::io::Write;
                use std::path::Path;

                use crate::error::ManifestError;
                use crate::postcode::repair_postcode;

                pub struct Change {
                    pub line: u64,
                    pub from: String,
                    pub to: String,
                }

                pub fn fix(path: &Path, dry_run: bool) -> Result<Vec<Change>, ManifestError> {
                    let io = |source| ManifestError::Open { path: path.into(), source };
                    let text = fs::read_to_string(path).map_err(io)?;
                    let mut changes = Vec::new();
                    let mut out = String::with_capacity(text.len());
                    for (index, line) in text.lines().enumerate() {
                        let mut fields: Vec<&str> = line.split(';').collect();
                        let repaired = fields.get(2).and_then(|p| repair_postcode(p));
                        if let Some(fixed) = &repaired {
                            changes.push(Change { line: index as u64 + 1, from: fields[2].into(), to: fixed.clone() });
                            fields[2] = fixed;
                        }
                        out.push_str(&fields.join(";"));
                        out.push('\n');
                    }
                    if !dry_run && !changes.is_empty() {
                        let tmp = path.with_extension("slipcheck-tmp");
                        let mut file = fs::File::create(&tmp).map_err(io)?;
                        file.write_all(out.as_bytes()).map_err(io)?;
                        file.sync_all().map_err(io)?;
                        fs::rename(&tmp, path).map_err(io)?;
                    }
                    Ok(changes)
                }
                ```

                This version is Hallam-only (semicolons, postcode in column 3); Nordlink and Vantage can
                follow once ops have used it for a week and we know it's trusted.
                """
            ),
            key="rc-req-fix",
        ),
        u("`fields[2] = fixed;` — fixed is a &String there, does that borrow work?"),
        a(
            w(
                r"""
                It does: `fields` is a `Vec<&str>`, `&String` derefs to `&str`, and `repaired` lives until
                the end of the loop body, after the `join`. If you moved the `join` after the loop it would
                stop compiling, because `repaired` would be dropped while `fields` still points at it.
                """
            )
        ),
        u("The ops laptops are Windows. Does the rename trick work there?"),
        a(
            w(
                r"""
                `std::fs::rename` replaces an existing file on Windows too (it uses `MoveFileExW` with
                `MOVEFILE_REPLACE_EXISTING`). The catch is that it fails if another program has the
                original open — and on Windows, Excel holds files open with a lock. So if someone has the
                manifest open in Excel, `fix` will error with "the process cannot access the file". That's
                the right behaviour, I think; we should just make the message say "close it in Excel"
                rather than the raw OS error.
                """
            )
        ),
        u("Ha, yes, it will 100% be open in Excel. Add that message please."),
        a(
            w(
                r"""
                In `fix`, map that one error kind to a friendlier variant. The change to `src/error.rs`,
                full file:

                ```rust
                use std::path::PathBuf;

                #[derive(Debug, thiserror::Error)]
                pub enum ManifestError {
                    #[error("could not open {path}")]
                    Open {
                        path: PathBuf,
                        #[source]
                        source: std::io::Error,
                    },
                    #[error("{path} is open in another program (Excel?) — close it and run fix again")]
                    Locked { path: PathBuf },
                    #[error("row {line}: {source}")]
                    Row {
                        line: u64,
                        #[source]
                        source: csv::Error,
                    },
                    #[error("row {line}: bad {name}")]
                    Field { line: u64, name: &'static str },
                    #[error(transparent)]
                    Json(#[from] serde_json::Error),
                    #[error("the file has no header row")]
                    NoHeader,
                }
                ```

                and in `fix.rs`, before the generic mapping: `Err(e) if e.kind() ==
                std::io::ErrorKind::PermissionDenied => return Err(ManifestError::Locked { path: path.into() })`.
                """
            )
        ),
        u("Ships it. Commit message for the fix command?"),
        a("`Add fix command for repairable postcodes` — 41 characters."),
        u("Thanks. I'm taking Friday off, my partner's birthday, so next week."),
        a("Enjoy it. Next week: the release workflow, so ops can get builds without asking you."),
    ],
)

S10 = Session(
    "2026-03-04T19:05:00Z",
    [
        u(
            "Release automation. I want: push a tag v*, GitHub Actions builds the Pi binary and a Windows "
            "exe for the ops laptops, attaches both to a release. We're on GitHub Enterprise at work, "
            "Actions are allowed."
        ),
        a(
            w(
                r"""
                Full `.github/workflows/release.yml`:

                ```yaml
                name: release
                on:
                  push:
                    tags: ["v*"]

                permissions:
                  contents: write

                jobs:
                  build:
                    strategy:
                      matrix:
                        include:
                          - { os: ubuntu-latest, target: aarch64-unknown-linux-gnu, bin: slipcheck }
                          - { os: windows-latest, target: x86_64-pc-windows-msvc, bin: slipcheck.exe }
                    runs-on: ${{ matrix.os }}
                    steps:
                      - uses: actions/checkout@v4
                      - name: Install cross
                        if: matrix.os == 'ubuntu-latest'
                        run: cargo install cross --locked
                      - name: Build (cross)
                        if: matrix.os == 'ubuntu-latest'
                        run: cross build --release --target ${{ matrix.target }}
                      - name: Build (native)
                        if: matrix.os == 'windows-latest'
                        run: cargo build --release --target ${{ matrix.target }}
                      - name: Rename
                        shell: bash
                        run: |
                          ext=""; [ "${{ matrix.os }}" = windows-latest ] && ext=".exe"
                          t="${{ matrix.target }}"; cp "target/$t/release/${{ matrix.bin }}" "slipcheck-$t$ext"
                      - uses: softprops/action-gh-release@v2
                        with:
                          files: slipcheck-${{ matrix.target }}*
                ```

                `rust-toolchain.toml` takes care of the Rust version on both runners. The Windows target
                is MSVC, built natively — cross-compiling to Windows from Linux is possible but the native
                runner is simpler.
                """
            ),
            key="rc-req-release",
        ),
        u(
            w(
                r"""
                ```
                Error: Process completed with exit code 101.
                error: toolchain '1.76-x86_64-unknown-linux-gnu' does not support target 'aarch64-unknown-linux-gnu'
                ```
                on the ubuntu job, in the cross step
                """
            )
        ),
        a(
            w(
                r"""
                That's cross and `rust-toolchain.toml` disagreeing: cross runs `rustup target add` inside
                its own container setup, but the `targets` line in our toolchain file makes rustup try to
                add the target on the host first, and on some runner images that host toolchain is
                installed "minimal" and read-only. Simplest fix: drop the `targets` line from
                `rust-toolchain.toml` — cross doesn't need it, and you don't either when you build with
                cross on your laptop. Full file:

                ```toml
                [toolchain]
                channel = "1.76"
                components = ["rustfmt", "clippy"]
                ```
                """
            )
        ),
        u("Green. Tagged v0.3.0, release has both files. Windows exe is 2.2 MB, funny."),
        a(
            "MSVC binaries tend to come out smaller — the Windows linker drops unused code aggressively and "
            "the symbols go to a separate `.pdb` file rather than into the exe."
        ),
        u(
            "Ops asked for a README they can actually read. Not a dev README. How to run it, what the exit "
            "codes mean, what to do when it says a file is locked."
        ),
        a(
            w(
                r"""
                A draft in their words rather than ours:

                ```markdown
                # slipcheck

                Checks carrier manifest files before billing sees them.

                ## Everyday use

                    slipcheck validate HALLAM_20260304.csv
                    slipcheck report NL20260304.json
                    slipcheck fix HALLAM_20260304.csv --dry-run   (shows what it would change)
                    slipcheck fix HALLAM_20260304.csv             (changes it)

                ## What the result means

                | It says            | Meaning                                   | What to do              |
                |--------------------|-------------------------------------------|-------------------------|
                | nothing, exit 0    | the file is fine                          | nothing                 |
                | rows listed        | some rows are wrong (listed by line)      | fix them or call billing|
                | "could not open"   | the file is missing or you can't read it  | check the name          |
                | "open in another…" | Excel has the file open                   | close Excel, run again  |

                Strict mode (warnings count as errors) is on in the night job; ask Gareth if a warning
                stops the run.
                ```

                I kept the exit numbers out of the table on purpose — ops see messages, only cron sees codes.
                """
            )
        ),
        u("Love it. They'll still call me, but it's nice to point at something."),
        a(
            "They will, but less. And the README is the thing you'll update instead of answering the same "
            "question twice."
        ),
        u("Should the version in Cargo.toml match the tag? I bumped the tag but forgot the file."),
        a(
            w(
                r"""
                It should, because `slipcheck --version` prints the Cargo.toml version, not the tag — so
                right now v0.3.0 says it's 0.2.0. A guard step at the start of the workflow catches it:

                ```yaml
                      - name: Tag matches Cargo.toml
                        shell: bash
                        run: |
                          want="${GITHUB_REF_NAME#v}"
                          have=$(grep -m1 '^version' Cargo.toml | cut -d'"' -f2)
                          [ "$want" = "$have" ] || { echo "tag $want, Cargo.toml $have"; exit 1; }
                ```

                Then re-tag: delete v0.3.0, bump the file, commit, tag again.
                """
            )
        ),
        u("Done, and the release page now says 0.3.0 everywhere. Embarrassing but caught before ops noticed."),
        a("Better the workflow catches it than Gareth."),
        u("Taking next week off, we're going to Whitby with the kids. Back on the 16th-ish."),
        a("Enjoy Whitby — bring a coat. Ping me when you're back."),
    ],
)

S11 = Session(
    "2026-03-18T20:15:00Z",
    [
        u(
            w(
                r"""
                Back. Sunburnt in March, somehow. Gareth forwarded this from last night's run:

                ```
                slipcheck: row 1: bad collected
                ```

                on a Vantage file. Line 1 of the file:

                ```
                VPX0004417A 04032026LS6 2AB  0000210000 1ECON
                ```
                """
            )
        ),
        a(
            w(
                r"""
                Two things are off in that line compared with the spec:

                - the consignment is 11 characters plus a space, fine, but the date reads `04032026` —
                  that's DDMMYYYY, not YYYYMMDD;
                - everything after it is shifted by one, which suggests the line is 43 characters rather
                  than 44.

                So either Vantage changed their export, or this file came from a different system of
                theirs. Do you have an older Vantage file from the same route to compare?
                """
            )
        ),
        u(
            "Checked with their support. They moved to a new export 'for some customers' on 1 March. Date is "
            "DDMMYYYY now and the consignment field is 11 wide. No version marker in the file. Lovely."
        ),
        a(
            w(
                r"""
                Without a marker, the line length is our signal: 44 is the old layout, 43 the new one. I'd
                make the layout a small table instead of hard-coded numbers, so the next change is data, not
                code. Full `src/vantage.rs`:

                ```rust
                use crate::error::ManifestError;
                use crate::row::OwnedRow;

                struct Layout {
                    len: usize,
                    consignment: (usize, usize),
                    date: (usize, usize),
                    day_first: bool,
                    postcode: (usize, usize),
                    grams: (usize, usize),
                    pieces: (usize, usize),
                    service: (usize, usize),
                }

                const LAYOUTS: &[Layout] = &[
                    Layout { len: 44, consignment: (0, 12), date: (12, 20), day_first: false,
                             postcode: (20, 28), grams: (28, 36), pieces: (36, 39), service: (39, 44) },
                    Layout { len: 43, consignment: (0, 11), date: (11, 19), day_first: true,
                             postcode: (19, 27), grams: (27, 35), pieces: (35, 38), service: (38, 43) },
                ];

                fn field(line: &str, (from, to): (usize, usize)) -> &str {
                    line.get(from..to).unwrap_or("").trim()
                }

                pub fn parse_line(line: &str, number: u64) -> Result<OwnedRow, ManifestError> {
                    let layout = LAYOUTS
                        .iter()
                        .find(|l| l.len == line.len())
                        .ok_or(ManifestError::Field { line: number, name: "line length" })?;
                    let raw = field(line, layout.date);
                    let bad = || ManifestError::Field { line: number, name: "collected" };
                    if raw.len() != 8 || !raw.bytes().all(|b| b.is_ascii_digit()) {
                        return Err(bad());
                    }
                    let (y, m, d) = if layout.day_first {
                        (&raw[4..], &raw[2..4], &raw[..2])
                    } else {
                        (&raw[..4], &raw[4..6], &raw[6..])
                    };
                    Ok(OwnedRow {
                        consignment: field(line, layout.consignment).to_owned(),
                        collected: format!("{y}-{m}-{d}"),
                        postcode: field(line, layout.postcode).to_owned(),
                        weight_kg: field(line, layout.grams).parse::<u64>().ok().map(|g| g as f64 / 1000.0),
                        pieces: field(line, layout.pieces).parse().map_err(|_| ManifestError::Field {
                            line: number,
                            name: "pieces",
                        })?,
                        service: field(line, layout.service).to_owned(),
                    })
                }
                ```

                `OwnedRow` is the owned twin of `RowRef` we already use for Nordlink. A line of any other
                length is an error that says so, instead of a confusing date message.
                """
            ),
            key="rc-req-layouts",
        ),
        u("Would've been nice to parse the date with chrono instead of slicing?"),
        a(
            w(
                r"""
                chrono would validate it as a calendar date (no 31 February), which slicing doesn't. It
                pulls in a few crates, though. A middle way without a dependency: after slicing, check
                month 01–12 and day 01–31, and let the future-date rule catch the rest. If you later need
                real date arithmetic — "collected more than 14 days ago", say — that's when chrono (or
                `time`) earns its place.
                """
            )
        ),
        u("Agree, range check for now. Adding a test with both layouts."),
        a(
            w(
                r"""
                Something like this in `tests/vantage.rs`:

                ```rust
                use slipcheck::vantage::parse_line;

                #[test]
                fn reads_both_layouts() {
                    let old = "VPX0004417A 20260304LS6 2AB 000210000  1ECON ";
                    let new = "VPX0004417A04032026LS6 2AB 00021000  1ECON ";
                    for line in [old, new] {
                        let row = parse_line(line, 1).expect("parses");
                        assert_eq!(row.collected, "2026-03-04");
                        assert_eq!(row.postcode, "LS6 2AB");
                    }
                }
                ```

                Pad the fixtures to exactly 44 and 43 characters — the test is only as good as those lengths.
                """
            )
        ),
        u("Both pass. Ines wants me to show slipcheck at the April all-hands. Apparently I'm 'the Rust person' now."),
        a("That's how it happens — one useful tool and you're the Rust person. Congratulations, and sorry."),
        u("Ha. Thanks for all the help with this, genuinely. Tagging v0.4.0."),
        a("It was a pleasure. v0.4.0 with two Vantage layouts and a README ops can read — good release."),
    ],
)

CHAT = Chat(
    name="ws-04-rust-cli",
    sessions=[S1, S2, S3, S4, S5, S6, S7, S8, S9, S10, S11],
    questions=[
        Question(
            "Add a --quiet option that hides the summary table.",
            "whole file",
            ["rc-rule-wholefile"],
            "standing-instruction",
        ),
        Question(
            "Write me a helper that loads the carrier list from disk.",
            "no unwrap()",
            ["rc-rule-unwrap"],
            "standing-instruction",
        ),
        Question(
            "Retry logic's done and staged. What one-liner should go in the history for it?",
            "imperative mood and under 50 characters",
            ["rc-rule-commit"],
            "standing-instruction",
        ),
        Question(
            "Set up the failure types for the new Vantage module.", "thiserror", ["rc-pref-thiserror"], "preference"
        ),
        Question(
            "How should I colour the warnings in the terminal output?",
            "If std can do it, skip the crate",
            ["rc-pref-deps"],
            "preference",
        ),
        Question(
            "How big is the release binary these days?", "3.1 MB", ["rc-size-new"], "knowledge-update", ["rc-size-old"]
        ),
        Question(
            "Which version of clap is slipcheck on?",
            "4.5.4",
            ["rc-clap-new"],
            "knowledge-update",
            ["rc-clap-old", "rc-code-profile"],
        ),
        Question(
            "What's the cross-compile target for the depot machine?",
            "aarch64-unknown-linux-gnu",
            ["rc-s7-update"],
            "knowledge-update",
            ["rc-target-old"],
        ),
        Question(
            "What date did the ops demo end up on?", "24th", ["rc-s7-update"], "knowledge-update", ["rc-demo-old"]
        ),
        Question(
            "What throughput does the Hallam parse benchmark show?",
            "410k rows/s",
            ["rc-speed-new"],
            "knowledge-update",
            ["rc-speed-old"],
        ),
        Question(
            "Which carriers' manifests does slipcheck read?",
            "Hallam Express; Nordlink; Vantage Parcel",
            ["rc-carrier-hallam", "rc-carrier-nordlink", "rc-carrier-vantage"],
            "multi-turn",
        ),
        Question(
            "How long did the nightly file take on the Pi 3 after the release-profile tuning, and on the Pi 5?",
            "2.6s; 0.9s",
            ["rc-pi3-time", "rc-s7-update"],
            "multi-turn",
        ),
        Question(
            "What did Gareth ask for, and what did the ops leads want after the demo?",
            "strict mode; fix subcommand",
            ["rc-gareth-strict", "rc-ops-fix"],
            "multi-turn",
        ),
        Question("Which depot does slipcheck run in?", "Coldharbour", ["rc-depot"], "single-fact"),
        Question(
            "Why were some Hallam files coming up one consignment short?",
            "assumes the first record is a header",
            ["rc-fact-headers"],
            "single-fact",
        ),
        Question(
            "What time limit did Ines set for the nightly file?", "under 2 seconds", ["rc-fact-budget"], "single-fact"
        ),
        Question("Which company am I writing slipcheck for?", "Brackwater Freight", ["rc-intro"], "single-fact"),
        Question(
            "Which environment variable switches on strict mode?",
            "SLIPCHECK_STRICT",
            ["rc-code-strict", "rc-code-completions"],
            "code",
        ),
        Question("What exit code does slipcheck return when rows fail the checks?", "3", ["rc-code-exit"], "code"),
        Question(
            "Which serde attribute lets one struct read both the Hallam and the Nordlink field names?",
            "alias",
            ["rc-code-rename"],
            "code",
        ),
        Question("What's the panic setting in our release profile?", "abort", ["rc-code-profile"], "code"),
        Question(
            "What do I run to regenerate the bash completion script?",
            "slipcheck completions bash",
            ["rc-code-completions"],
            "code",
        ),
        Question(
            "Make the repair command handle Nordlink files too, not just the semicolon ones.",
            "Hallam-only",
            ["rc-req-fix"],
            "request-context",
        ),
        Question(
            "Add a macOS binary to what gets built when I push a version tag.",
            "x86_64-pc-windows-msvc",
            ["rc-req-release"],
            "request-context",
        ),
        Question(
            "Can you support Vantage's June export? Same as the March one, but the postcode is 10 characters wide.",
            "LAYOUTS",
            ["rc-req-layouts"],
            "request-context",
        ),
    ],
)
