"""A PhD student trains and evaluates a classifier of city service reports with an assistant over a
winter: baselines, splits, a PyTorch fine-tune, sweeps on a shared GPU node, ablations, an advisor's
requests and a workshop deadline."""

from __future__ import annotations

from textwrap import dedent

from bench.working_sessions.shape import Chat, Question, Session, a, u


def d(text: str) -> str:
    return dedent(text).strip("\n")


SESSIONS = [
    Session(
        "2026-01-08T10:05:00Z",
        [
            u(
                d("""
                Hi! New project, so some context. I'm a second-year PhD student; we're building a classifier
                for city service reports — the "there's a pothole on my street" kind — that routes each report
                to one of 14 service categories. The dataset is ours (CivicText): reports from Leeds, Austin
                and Valencia, 48k labeled so far, English and some Spanish. I want a solid baseline first, then
                a transformer fine-tune.
                """),
                key="intro",
            ),
            a(
                d("""
                Nice setup — real routing data with a multilingual slice is a good paper story. A plan:

                1. **Baseline**: TF-IDF (word + character n-grams) + logistic regression. Cheap, strong on
                   short texts, and the number every reviewer will ask about.
                2. **Splits** before anything else, stratified, frozen to disk, so every later number is
                   comparable.
                3. **Transformer**: a multilingual encoder (XLM-R base or mDeBERTa-v3 base) fine-tuned with
                   a plain PyTorch loop.
                4. **Sweeps and ablations** once the pipeline is stable.

                A baseline to start with:

                ```python
                import pandas as pd
                from sklearn.feature_extraction.text import TfidfVectorizer
                from sklearn.linear_model import LogisticRegression
                from sklearn.metrics import classification_report
                from sklearn.pipeline import FeatureUnion, make_pipeline

                df = pd.read_parquet("data/civictext.parquet")
                train, valid = df[df.split == "train"], df[df.split == "valid"]

                features = FeatureUnion([
                    ("word", TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)),
                    ("char", TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), min_df=3, sublinear_tf=True)),
                ])
                model = make_pipeline(features, LogisticRegression(max_iter=2000, C=4.0, class_weight="balanced"))
                model.fit(train.text, train.label)
                print(classification_report(valid.label, model.predict(valid.text), digits=3))
                ```

                This assumes a `split` column exists; we'll make one properly next.
                """)
            ),
            u(
                d("""
                One formatting thing for everything we do: report accuracy and F1 with two decimals, as a
                fraction like 0.87 — never as percentages. My advisor hates "87.3%" in tables.
                """),
                key="metric-format",
            ),
            a(
                d("""
                Will do: two decimals, fractions, throughout. For the baseline that means
                `classification_report(..., digits=2)`, and in any table I write I'll format with `f"{x:.2f}"`.
                """)
            ),
            u("Env stuff: I use uv for everything. Not conda, not bare pip.", key="uv"),
            a(
                d("""
                Good choice for reproducibility. Setting up the project:

                ```bash
                uv init civictext-clf
                cd civictext-clf
                uv add torch transformers pandas pyarrow scikit-learn
                uv add --dev ruff mypy pytest
                uv run python -c "import torch; print(torch.__version__, torch.cuda.is_available())"
                ```

                `uv.lock` pins everything; commit it so the cluster and your laptop resolve the same versions.
                For the CUDA build of torch on the cluster, add the PyTorch index to `pyproject.toml`:

                ```toml
                [[tool.uv.index]]
                name = "pytorch-cu124"
                url = "https://download.pytorch.org/whl/cu124"
                explicit = true

                [tool.uv.sources]
                torch = { index = "pytorch-cu124" }
                ```
                """)
            ),
            u(
                d("""
                Ran the baseline on a quick random split (I know, I know):

                ```
                              precision  recall  f1-score  support
                    accuracy                         0.78     4800
                   macro avg       0.71    0.70      0.69     4800
                weighted avg       0.79    0.78      0.78     4800
                ```
                """)
            ),
            a(
                d("""
                0.78 accuracy and 0.69 macro-F1 — the gap between macro and weighted F1 says the rare
                categories are doing badly, which is expected with `class_weight="balanced"` only partially
                compensating. Macro-F1 should be the headline metric for a routing task: a misrouted rare
                report (say, a gas smell) matters more than its share of the data suggests.

                Once the real splits exist, rerun this and it becomes baseline row 1 of the paper table.
                """)
            ),
            u("Paper target is the TextApps workshop. Deadline April 10.", key="deadline-old"),
            a(
                d("""
                Three months. Working back: experiments frozen by mid-March, writing from then, internal review
                with your advisor the week before. That leaves January for splits and the first fine-tune,
                February for sweeps and ablations.
                """)
            ),
            u(
                d("""
                Compute: the lab node has 4 A100s (40 GB), which I share with Tobias from the vision side of
                the lab. He's mostly on nights.
                """),
                key="gpu-old",
            ),
            a(
                d("""
                Plenty for base-size encoders: one XLM-R base fine-tune on ~40k short texts fits on a single
                A100 with room to spare, so you can run up to four sweep configurations in parallel, one per GPU,
                with `CUDA_VISIBLE_DEVICES` pinning each job. Coordinate with Tobias by convention (e.g. you own
                GPUs 0–1 during the day) or a simple lock file; contention on a shared node causes more lost
                runs than bugs do.
                """)
            ),
            u("For the record, my advisor is Prof. Amara Lindqvist — you'll hear her name a lot.", key="advisor"),
            a("Noted — I'll keep Prof. Lindqvist's table preferences in mind. Two decimals it is."),
        ],
    ),
    Session(
        "2026-01-14T14:30:00Z",
        [
            u(
                d("""
                Label counts on the full 48k:

                ```
                pothole_road_damage      9812
                waste_collection         8120
                streetlight              5077
                noise                    4533
                graffiti                 3904
                parking                  3690
                water_leak               3102
                trees_vegetation         2766
                animal                   2210
                public_transport         1702
                drainage_flooding        1411
                gas_smell                 804
                illegal_dumping           657
                abandoned_vehicle         212
                ```
                """)
            ),
            a(
                d("""
                A 46:1 ratio between the biggest and smallest class. abandoned_vehicle at 212 examples means
                ~21 in a 10% validation split — F1 on that class will jump around by 0.05–0.10 between seeds
                just from a couple of predictions, so report macro-F1 as a mean over seeds.

                For the splits I'd do 80/10/10, stratified by label, with a fixed seed and the result written to
                disk once:

                ```python
                import pandas as pd
                from sklearn.model_selection import train_test_split

                df = pd.read_parquet("data/civictext_raw.parquet")
                train, rest = train_test_split(df, test_size=0.2, stratify=df.label, random_state=1337)
                valid, test = train_test_split(rest, test_size=0.5, stratify=rest.label, random_state=1337)

                df["split"] = "train"
                df.loc[valid.index, "split"] = "valid"
                df.loc[test.index, "split"] = "test"
                df.to_parquet("data/civictext.parquet")
                print(df.groupby(["split", "label"]).size().unstack(0))
                ```
                """),
                key="split-ratio",
            ),
            u(
                d("""
                Stratify by city as well — Valencia is mostly Spanish and I want each split to have all three
                cities in the same proportion, otherwise the language results will be noise.
                """),
                key="split-city",
            ),
            a(
                d("""
                Good point. Stratify on the combination; the rarest (label, city) cells need at least two
                members or `train_test_split` refuses, so fold those into a per-label bucket:

                ```python
                strata = df.label + "|" + df.city
                counts = strata.value_counts()
                strata = strata.where(strata.map(counts) >= 10, df.label + "|rare")

                train, rest = train_test_split(df, test_size=0.2, stratify=strata, random_state=1337)
                valid, test = train_test_split(
                    rest, test_size=0.5, stratify=strata.loc[rest.index], random_state=1337
                )
                ```

                Then check it: the city share per split should match to within a point or so.

                ```python
                print(pd.crosstab(df.split, df.city, normalize="index").round(2))
                ```
                """)
            ),
            u(
                d("""
                Once the splits exist, the held-out one stays sealed until the final run. If I ever ask to
                peek at it early, push back. I've seen too many papers tune on it by accident.
                """),
                key="sealed",
            ),
            a(
                d("""
                Agreed, and I'll hold you to it. A mechanical guard helps more than good intentions: keep the
                sealed rows in a separate file, and make the data loader refuse to load it without a flag.

                ```python
                from pathlib import Path

                import pandas as pd

                SEALED = Path("data/sealed.parquet")

                def load_split(name: str, *, final: bool = False) -> pd.DataFrame:
                    if name == "test" and not final:
                        raise RuntimeError("the test split is sealed; pass final=True for the final run")
                    path = SEALED if name == "test" else Path("data/civictext.parquet")
                    df = pd.read_parquet(path)
                    return df if name == "test" else df[df.split == name]
                ```

                Also record a hash of the sealed file in the repo, so you can show it hasn't changed.
                """)
            ),
            u(
                d("""
                Always set seeds explicitly in any script you give me — torch, numpy, python's random — and
                print them at startup so they end up in the logs.
                """),
                key="seeds",
            ),
            a(
                d("""
                A helper that every script calls first:

                ```python
                import os
                import random

                import numpy as np
                import torch

                SEED = 1337

                def seed_everything(seed: int = SEED) -> None:
                    random.seed(seed)
                    np.random.seed(seed)
                    torch.manual_seed(seed)
                    torch.cuda.manual_seed_all(seed)
                    os.environ["PYTHONHASHSEED"] = str(seed)
                    torch.backends.cudnn.benchmark = False
                    print(f"seed={seed} torch={torch.__version__} cuda={torch.version.cuda}", flush=True)
                ```

                For runs that compare seeds, pass `--seed` on the command line and still call it first.
                Full determinism on GPU would also need `torch.use_deterministic_algorithms(True)`, which slows
                some kernels; I'd leave it off and average over seeds instead.
                """),
                key="seed-code",
            ),
            u(
                d("""
                For the paper I'll need to describe annotation. We double-annotated 2,000 reports last summer
                and Cohen's kappa was 0.71.
                """),
                key="kappa",
            ),
            a(
                d("""
                0.71 is "substantial" agreement by the usual reading and respectable for 14 categories. It's
                also worth a sentence in the paper as an informal ceiling: if two trained humans disagree on
                a meaningful share of reports, a model's macro-F1 in the mid-0.80s is close to what the labels
                support. The confusion between annotators (which pairs of categories they disagreed on) will
                probably mirror the model's confusion matrix — a nice figure if it does.
                """)
            ),
            u("Which pairs? I think drainage_flooding vs water_leak mostly. And waste vs illegal_dumping."),
            a(
                d("""
                Those are exactly the pairs where the distinction is about cause rather than what the reporter
                sees ("water on the street"). Keep the annotator disagreement matrix; we'll put it next to the
                model's later.
                """)
            ),
            u("Also: the cluster accounting gives our project 2,000 GPU-hours for the term.", key="budget"),
            a(
                d("""
                That's a real constraint for sweeps. Rough costs for base-size encoders at max length 256 on an
                A100: 1–2 GPU-hours per epoch over ~40k examples, so a 4-epoch run is 4–8 GPU-hours. 2,000 hours
                is a few hundred runs — generous if you plan the sweeps, gone in a week if you grid-search
                everything with five seeds.
                """)
            ),
        ],
    ),
    Session(
        "2026-01-22T09:40:00Z",
        [
            u("Let's go with xlm-roberta-base first, since Spanish. Plain PyTorch loop please, no Trainer."),
            a(
                d("""
                Here's the data side first — a tokenizing dataset that truncates reports and pads per batch:

                ```python
                import torch
                from torch.utils.data import Dataset
                from transformers import AutoTokenizer

                MODEL = "xlm-roberta-base"
                tokenizer = AutoTokenizer.from_pretrained(MODEL)

                class Reports(Dataset):
                    def __init__(self, texts, labels):
                        self.encodings = tokenizer(list(texts), truncation=True, max_length=256)
                        self.labels = list(labels)

                    def __len__(self):
                        return len(self.labels)

                    def __getitem__(self, i):
                        item = {k: v[i] for k, v in self.encodings.items()}
                        item["labels"] = self.labels[i]
                        return item
                ```

                256 tokens covers ~99% of reports if they're like most 311 data (median is usually 40–60
                tokens); check with `np.percentile([len(x) for x in enc["input_ids"]], [50, 95, 99])` on yours.
                """),
                key="max-length",
            ),
            u(
                d("""
                Put type hints on every function you write me, please. Our lab CI runs mypy --strict on the
                repo and untyped defs fail the build.
                """),
                key="type-hints",
            ),
            a(
                d("""
                Understood. The dataset again, typed:

                ```python
                from collections.abc import Sequence

                import torch
                from torch.utils.data import Dataset
                from transformers import AutoTokenizer, BatchEncoding

                class Reports(Dataset[dict[str, torch.Tensor]]):
                    def __init__(self, texts: Sequence[str], labels: Sequence[int], max_length: int = 256) -> None:
                        self.encodings: BatchEncoding = tokenizer(list(texts), truncation=True, max_length=max_length)
                        self.labels: list[int] = list(labels)

                    def __len__(self) -> int:
                        return len(self.labels)

                    def __getitem__(self, i: int) -> dict[str, torch.Tensor]:
                        item = {k: torch.tensor(v[i]) for k, v in self.encodings.items()}
                        item["labels"] = torch.tensor(self.labels[i])
                        return item
                ```

                `transformers` ships partial type information, so you may need
                `[[tool.mypy.overrides]] module = ["transformers.*"] ignore_missing_imports = true` in
                `pyproject.toml` to keep `--strict` happy.
                """)
            ),
            u("Now the training loop."),
            a(
                d("""
                ```python
                import math

                import torch
                from torch.utils.data import DataLoader
                from transformers import AutoModelForSequenceClassification, DataCollatorWithPadding
                from transformers import get_linear_schedule_with_warmup

                from civictext.seeding import seed_everything

                def train(train_ds: Reports, valid_ds: Reports, num_labels: int, seed: int = 1337) -> None:
                    seed_everything(seed)
                    device = torch.device("cuda")
                    model = AutoModelForSequenceClassification.from_pretrained(MODEL, num_labels=num_labels).to(device)
                    collate = DataCollatorWithPadding(tokenizer)
                    loader = DataLoader(train_ds, batch_size=32, shuffle=True, collate_fn=collate, num_workers=4)

                    epochs = 4
                    warmup_ratio = 0.06
                    steps = epochs * len(loader)
                    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5, weight_decay=0.01)
                    scheduler = get_linear_schedule_with_warmup(
                        optimizer, num_warmup_steps=math.ceil(warmup_ratio * steps), num_training_steps=steps
                    )

                    for epoch in range(epochs):
                        model.train()
                        for batch in loader:
                            batch = {k: v.to(device) for k, v in batch.items()}
                            with torch.autocast("cuda", dtype=torch.bfloat16):
                                loss = model(**batch).loss
                            loss.backward()
                            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                            optimizer.step()
                            scheduler.step()
                            optimizer.zero_grad(set_to_none=True)
                        print(f"epoch {epoch} valid macro-F1 {evaluate(model, valid_ds):.2f}", flush=True)
                ```

                Warmup over the first 6% of steps, then linear decay — the standard recipe for RoBERTa-family
                fine-tunes. bf16 autocast on A100s needs no loss scaler.
                """),
                key="warmup",
            ),
            u(
                d("""
                ```
                torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total
                capacity of 39.39 GiB of which 1.21 GiB is free. Process 88213 has 31.02 GiB memory in use.
                ```

                I only changed batch size to 64 to go faster
                """)
            ),
            a(
                d("""
                Look at the last line: *process 88213* holds 31 GiB on GPU 0 — that's not yours, so someone
                else (Tobias?) is on that GPU. Your job had ~8 GiB to work with. Check before launching:

                ```bash
                nvidia-smi --query-gpu=index,memory.used,memory.total --format=csv
                nvidia-smi --query-compute-apps=pid,used_memory --format=csv
                ```

                and pick a free GPU with `CUDA_VISIBLE_DEVICES=2 uv run python train.py`. Batch 64 at 256
                tokens for a base model fits comfortably in 40 GB on an empty card. If you ever do need larger
                effective batches on a crowded GPU, gradient accumulation gets there without the memory.
                """)
            ),
            u("Yep, it was Tobias, running a daytime job. We've agreed GPUs 0-1 are mine until 6pm."),
            a("A sensible treaty. Worth writing it into the node's MOTD so nobody has to remember."),
            u(
                d("""
                First full run done, xlm-r base, 4 epochs, lr 2e-5, seed 1337: best validation macro-F1 0.81
                at epoch 3. Accuracy 0.88.
                """),
                key="f1-old",
            ),
            a(
                d("""
                A big jump from the baseline's 0.69 macro-F1 (assuming you reran the baseline on the real
                splits — worth confirming the row is comparable). Epoch 3 peaking in a 4-epoch run is typical;
                keep the best checkpoint by validation macro-F1 rather than the last one.

                Next: how much of that 0.81 is seed luck. Two more seeds of the same config before the sweep.
                """)
            ),
            u(
                d("""
                Can you plot per-class F1 for that run? I'd rather read plain matplotlib than seaborn, and no
                titles on figures — the caption does that job in the paper.
                """),
                key="matplotlib",
            ),
            a(
                d("""
                ```python
                import matplotlib.pyplot as plt
                import numpy as np
                from sklearn.metrics import f1_score

                def plot_per_class_f1(y_true: np.ndarray, y_pred: np.ndarray, labels: list[str], path: str) -> None:
                    scores = f1_score(y_true, y_pred, average=None, labels=range(len(labels)))
                    order = np.argsort(scores)
                    fig, ax = plt.subplots(figsize=(6, 4.5))
                    ax.barh(np.array(labels)[order], scores[order], color="0.35")
                    ax.set_xlabel("F1")
                    ax.set_xlim(0, 1)
                    for y, s in enumerate(scores[order]):
                        ax.text(s + 0.01, y, f"{s:.2f}", va="center", fontsize=8)
                    ax.spines[["top", "right"]].set_visible(False)
                    fig.tight_layout()
                    fig.savefig(path, dpi=300)
                    plt.close(fig)
                ```

                Sorted so the weak classes sit together at the bottom; grey bars print fine in black and white.
                """)
            ),
            u("abandoned_vehicle 0.52, gas_smell 0.61, everything else above 0.75. As feared."),
            a(
                d("""
                Those two are also the smallest classes with the most "borrowed" vocabulary (a gas smell report
                often mentions a leak; an abandoned car often mentions parking). Options for the rare classes,
                cheapest first: class-weighted loss, oversampling in the loader, and — for the paper — an honest
                per-class table.
                """)
            ),
        ],
    ),
    Session(
        "2026-02-02T13:15:00Z",
        [
            u(
                d("""
                Sweep time. I want lr in {1e-5, 2e-5, 3e-5, 5e-5} × 3 seeds, 4 epochs each, xlm-r base. What
                does that cost?
                """)
            ),
            a(
                d("""
                From your first run's logs (~2.4 GPU-hours per epoch including evaluation on the node), that's
                about 9.5 GPU-hours per run, so 12 runs ≈ 115 GPU-hours — under 6% of the term's budget. On two
                GPUs in parallel, about 2.5 days of wall time.

                A launcher that runs one config per GPU from a queue:

                ```bash
                #!/usr/bin/env bash
                set -euo pipefail
                gpu="$1"   # 0 or 1, per the treaty with Tobias
                while read -r lr seed; do
                  CUDA_VISIBLE_DEVICES="$gpu" uv run python -m civictext.train \\
                    --model xlm-roberta-base --lr "$lr" --seed "$seed" --epochs 4 \\
                    --out "runs/xlmr-lr${lr}-s${seed}"
                done < "sweeps/lr_gpu${gpu}.txt"
                ```

                with `sweeps/lr_gpu0.txt` holding half the (lr, seed) pairs and `lr_gpu1.txt` the other half.
                """),
                key="run-cost",
            ),
            u(
                d("""
                Logging: I don't use wandb. Write metrics to one CSV per run and I'll plot them myself — fewer
                accounts, fewer surprises.
                """),
                key="csv",
            ),
            a(
                d("""
                Simple and reproducible. A small logger the loop calls after each evaluation:

                ```python
                import csv
                from pathlib import Path

                class CsvLog:
                    def __init__(self, run_dir: Path, fields: list[str]) -> None:
                        run_dir.mkdir(parents=True, exist_ok=True)
                        self.path = run_dir / "metrics.csv"
                        self.fields = fields
                        with self.path.open("w", newline="") as f:
                            csv.DictWriter(f, fieldnames=fields).writeheader()

                    def write(self, **row: float | int | str) -> None:
                        with self.path.open("a", newline="") as f:
                            csv.DictWriter(f, fieldnames=self.fields).writerow(row)

                log = CsvLog(Path(args.out), ["epoch", "step", "train_loss", "valid_loss", "valid_macro_f1", "lr"])
                log.write(epoch=epoch, step=step, train_loss=round(train_loss, 4), valid_loss=round(valid_loss, 4),
                          valid_macro_f1=round(f1, 4), lr=scheduler.get_last_lr()[0])
                ```

                Opening in append mode per row means a crashed run still leaves every row written so far.
                I keep four decimals in the raw file; the two-decimal rounding happens when we report.
                """)
            ),
            u(
                d("""
                Sweep's done. Mean ± std of best valid macro-F1 over 3 seeds:

                ```
                lr      macro_f1
                1e-5    0.79 ± 0.01
                2e-5    0.81 ± 0.01
                3e-5    0.82 ± 0.00
                5e-5    0.78 ± 0.03
                ```
                """)
            ),
            a(
                d("""
                3e-5 wins by a small margin, with the lowest variance; 5e-5 is already unstable (one seed
                probably diverged for a while — check its loss curve). The difference between 2e-5 and 3e-5 is
                within a standard deviation, so in the paper say "3e-5, chosen on validation" rather than
                implying it matters much.

                One more thing worth a short sweep: epochs. At 3e-5 the peak may come earlier, and a 3-epoch run
                saves 25% of every future run's cost.
                """)
            ),
            u("Plot of valid loss per epoch for the 3e-5 runs shows overfitting after epoch 3. So 3 epochs."),
            a(
                d("""
                Then the default config becomes lr 3e-5, 3 epochs, batch 32, warmup 6%, weight decay 0.01.
                Write it into a config file committed to the repo, so the paper's numbers trace to a file rather
                than to a memory of a command line:

                ```toml
                # configs/xlmr_base.toml
                model = "xlm-roberta-base"
                lr = 3e-5
                epochs = 3
                batch_size = 32
                warmup_ratio = 0.06
                weight_decay = 0.01
                max_length = 256
                ```
                """)
            ),
            u(
                d("""
                I'll be slow this week, sorry — training for the Berlin half marathon in April and the long runs
                eat my evenings.
                """),
                key="marathon",
            ),
            a(
                d("""
                No apology needed; runs that train while you run are the best kind. If you want, queue the epoch
                sweep before leaving in the evening and we'll read the CSVs in the morning.
                """)
            ),
            u("Queued. Quick q: what's the difference between macro and weighted F1 again, in one sentence?"),
            a(
                d("""
                Macro-F1 averages the per-class F1 scores equally, so every category counts the same; weighted
                F1 averages them in proportion to class frequency, so it's dominated by the big classes.
                """)
            ),
            u("Perfect, that's going straight into the metrics paragraph."),
            a("Add which one you select checkpoints on (macro), and the paragraph is complete."),
        ],
    ),
    Session(
        "2026-02-12T10:50:00Z",
        [
            u(
                d("""
                Big news from the data side: the Valencia annotators delivered their batch, so we have 61k labeled
                reports in total, about 13k of them in Spanish. Also Amara came back from her sabbatical trip, and
                the cluster was down Tuesday for a firmware update so I lost a day of runs. How do I fold the
                new data into the splits without wrecking comparability?
                """),
                key="size-new",
            ),
            a(
                d("""
                Don't re-split from scratch — that would move old examples between train and validation and make
                every earlier number incomparable. Split only the new rows, with the same ratios and strata, and
                append:

                ```python
                import pandas as pd
                from sklearn.model_selection import train_test_split

                old = pd.read_parquet("data/civictext.parquet")
                new = pd.read_parquet("data/valencia_batch2.parquet")
                new = new[~new.report_id.isin(old.report_id)]  # exact duplicates out first

                strata = new.label + "|" + new.city
                counts = strata.value_counts()
                strata = strata.where(strata.map(counts) >= 10, new.label + "|rare")

                tr, rest = train_test_split(new, test_size=0.2, stratify=strata, random_state=1337)
                va, te = train_test_split(rest, test_size=0.5, stratify=strata.loc[rest.index], random_state=1337)
                new["split"] = "train"
                new.loc[va.index, "split"] = "valid"
                new.loc[te.index, "split"] = "test"
                ```

                Then write the new sealed rows into the sealed file (and update its hash — with a commit message
                saying why). Also check near-duplicates across the boundary: citizens often file the same
                complaint twice, and a near-copy in train of a validation report inflates scores.
                """)
            ),
            u(
                d("""
                ran a MinHash near-dup check: 412 pairs across the new train/valid boundary with jaccard > 0.9.
                Most are the same person reporting the same streetlight on consecutive days
                """)
            ),
            a(
                d("""
                Group them so both copies land in the same split. With the pairs in hand:

                ```python
                import networkx as nx

                g = nx.Graph()
                g.add_edges_from(pairs)  # (report_id, report_id) with jaccard > 0.9
                group_of = {rid: i for i, comp in enumerate(nx.connected_components(g)) for rid in comp}
                new["group"] = new.report_id.map(group_of).fillna(new.report_id).astype(str)
                ```

                and split with `StratifiedGroupKFold(n_splits=10)` on `group`, taking one fold as validation
                and one as test. It stratifies approximately rather than exactly, which is fine at this size.
                Mention the dedup in the paper; reviewers increasingly ask.
                """)
            ),
            u(
                d("""
                For the paper, first ablation: train without any Spanish data and evaluate on everything, so we
                can show what the Valencia annotation bought us.
                """),
                key="abl-1",
            ),
            a(
                d("""
                A clean ablation. Make it a config flag rather than a separate script, so both arms share the
                same code path:

                ```python
                def select_train(df: pd.DataFrame, drop_language: str | None) -> pd.DataFrame:
                    train = df[df.split == "train"]
                    if drop_language is not None:
                        train = train[train.language != drop_language]
                    return train
                ```

                ```toml
                # configs/ablation_no_spanish.toml
                base = "xlmr_base.toml"
                drop_language = "es"
                ```

                Report validation macro-F1 separately for English and Spanish reports in both arms; the
                interesting number is how far Spanish falls when the model has seen none in training (XLM-R's
                cross-lingual transfer will keep it well above chance).
                """)
            ),
            u("we're down to three A100s, the fourth went to the vision group's new project", key="gpu-new"),
            a(
                d("""
                With three cards and the daytime treaty, you effectively have one to two GPUs by day and all
                three at night if Tobias's jobs allow. At ~7 GPU-hours per 3-epoch run, the ablations (3 arms ×
                3 seeds) fit in one night on three GPUs. I'd make the launcher take a list of GPUs so it adapts:

                ```bash
                for gpu in 0 1 2; do
                  ./sweep.sh "$gpu" &
                done
                wait
                ```
                """)
            ),
            u("Rerun everything on the new data with the 3e-5 config? Or only the final model?"),
            a(
                d("""
                Everything that goes in the paper's main table, yes — baseline, xlm-r base, and the ablations —
                because mixing 48k-era and 61k-era numbers in one table is the kind of thing reviewers catch. The
                lr sweep doesn't need rerunning; say in the paper it was done on an earlier version of the
                training set. That's about 20 runs, ~140 GPU-hours.
                """)
            ),
            u("ok. Amara wants a meeting Thursday, I'll bring the new numbers."),
            a("Bring the per-class plot too — the rare classes are where the new data should show."),
        ],
    ),
]

QUESTIONS = [
    Question("How many categories does the classifier route reports into?", "14", ["intro"], "single-fact"),
    Question(
        "Summarise how the no-Spanish ablation came out.",
        "two decimals",
        ["metric-format"],
        "standing-instruction",
    ),
    Question("How do I get sentencepiece installed?", "uv", ["uv"], "preference"),
    Question(
        "Let's pick the learning rate by scoring each candidate on test.",
        "push back",
        ["sealed"],
        "standing-instruction",
    ),
    Question("Write me the fine-tuning loop for DeBERTa.", "set seeds explicitly", ["seeds"], "standing-instruction"),
    Question(
        "I need a helper that collates variable-length batches.",
        "type hints",
        ["type-hints"],
        "standing-instruction",
    ),
    Question("Which seed number do my scripts use?", "1337", ["seed-code"], "code"),
    Question("What was the inter-annotator agreement?", "0.71", ["kappa"], "single-fact"),
    Question("To how many tokens do we truncate each report?", "256", ["max-length"], "code"),
    Question("What warmup ratio does the training loop use?", "0.06", ["warmup"], "code"),
    Question(
        "Chart validation loss over the epochs for the three runs.",
        "plain matplotlib",
        ["matplotlib"],
        "preference",
    ),
    Question(
        "Make the trainer keep a record of loss after every epoch.",
        "one CSV per run",
        ["csv"],
        "preference",
    ),
    Question("How many GPU-hours does one xlm-r run cost?", "9.5 GPU-hours", ["run-cost"], "single-fact"),
    Question("What race am I training for?", "Berlin half marathon", ["marathon"], "single-fact"),
    Question(
        "How many labeled reports does CivicText have?",
        "61k",
        ["size-new"],
        "knowledge-update",
        superseded=["intro"],
    ),
    Question(
        "How many A100s can I use on the lab node?",
        "three A100s",
        ["gpu-new"],
        "knowledge-update",
        superseded=["gpu-old"],
    ),
    Question(
        "How are the data splits made?",
        "80/10/10; stratify by city as well",
        ["split-ratio", "split-city"],
        "multi-turn",
    ),
]

CHAT = Chat(name="ws-08-ml-training", sessions=SESSIONS, questions=QUESTIONS)
