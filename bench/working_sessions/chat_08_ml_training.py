"""A PhD student trains and evaluates a classifier of city service reports with an assistant over a
winter: baselines, splits, a PyTorch fine-tune, sweeps on a shared GPU node, ablations, an advisor's
requests and a workshop deadline."""

from __future__ import annotations

from bench.working_sessions.shape import Chat, Question, Session, a, d, u

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
            u("How would you lay out the repo? Last project was a pile of notebooks and I regret it."),
            a(
                d("""
                A package for code that's imported, scripts that are run, and data/runs kept out of git:

                ```
                civictext-clf/
                  pyproject.toml
                  uv.lock
                  src/civictext/
                    data.py        # loading, splits
                    seeding.py
                    train.py       # python -m civictext.train
                    evaluate.py
                  configs/         # one file per reported configuration
                  sweeps/
                  analysis/        # notebooks allowed here, and only here
                  data/            # .gitignore'd, with a README on where it comes from
                  runs/            # .gitignore'd
                ```

                The rule that saves you later: every number in the paper comes from a config in `configs/` and a
                run directory in `runs/` whose name says which.
                """)
            ),
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
            u("Dumb question: why bf16 and not fp16? I thought fp16 was the standard."),
            a(
                d("""
                Not dumb. Both are 16 bits, split differently: fp16 has more mantissa (precision) and a small
                exponent range (max ~65,504), bf16 has fp32's exponent range with less precision. For training,
                range matters more — fp16 needs a loss scaler to avoid gradients underflowing to zero, and some
                models overflow in the forward pass. bf16 needs neither trick. A100s have fast bf16; older GPUs
                like V100s don't, which is the only reason to still use fp16.
                """)
            ),
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
                """),
                key="f1-sweep",
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
            u(
                d("""
                reading the CSVs back for the plot:

                ```
                pandas.errors.ParserError: Error tokenizing data. C error: Expected 6 fields in line 412, saw 7
                ```
                """)
            ),
            a(
                d("""
                Line 412 has one field more than the header. With `CsvLog` that happens when a run directory is
                reused: the second run appends rows to the first run's file — and if you added a field between
                runs, the rows stop matching the header. Check whether two runs shared an `--out` directory:

                ```bash
                grep -c epoch runs/*/metrics.csv | awk -F: '$2 > 1'
                ```

                Any file with more than one header line was written twice. Making `train.py` refuse an existing
                output directory (unless `--overwrite`) stops it happening again.
                """)
            ),
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
                """),
                key="rc-req-select",
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
            u(
                d("""
                Odd thing while checking the new batch: about 300 of the Leeds reports aren't English — mostly
                Polish, a few Romanian. The language column says "en" for all of them because it was set by city.
                """)
            ),
            a(
                d("""
                Worth fixing the column, since the no-Spanish ablation and the per-language numbers depend on
                it. A language identifier over the text is quick and good enough for this:

                ```python
                import fasttext

                lid = fasttext.load_model("models/lid.176.ftz")

                def detect(text: str) -> str:
                    labels, _ = lid.predict(text.replace("\n", " "), k=1)
                    return labels[0].removeprefix("__label__")

                df["language_detected"] = df.text.map(detect)
                print(pd.crosstab(df.city, df.language_detected).loc[:, lambda t: t.sum() > 20])
                ```

                Keep both columns; report the languages as detected, and mention the small Polish/Romanian
                share — it's a nice detail for a multilingual routing paper.
                """)
            ),
            u("ok. Amara wants a meeting Thursday, I'll bring the new numbers."),
            a("Bring the per-class plot too — the rare classes are where the new data should show."),
        ],
    ),
    Session(
        "2026-02-24T15:05:00Z",
        [
            u(
                d("""
                Meeting with Amara went fine, she likes the dedup story. Meanwhile I tried mdeberta-v3-base on
                the 61k data with the same recipe (3e-5, 3 epochs, batch 32): best validation macro-F1 is 0.84,
                mean over three seeds, against 0.82 for xlm-r base on the same data. It's about 1.3× slower per
                epoch, and one seed needed a restart because the node rebooted, but it looks real.
                """),
                key="f1-new",
            ),
            a(
                d("""
                +0.02 macro-F1 with three seeds each and small standard deviations is a real gain at this data
                size — and consistent with what mDeBERTa-v3 usually does over XLM-R base on classification. The
                1.3× cost is affordable. Two things to check before it becomes the main model:

                - per-class F1: whether the gain comes from the rare classes or from the big ones
                - Spanish vs English separately: mDeBERTa's vocabulary is different, and the gain might be
                  uneven across languages

                Also pin the exact checkpoint revision in the config, since hub models can be updated:

                ```toml
                # configs/mdeberta_base.toml
                model = "microsoft/mdeberta-v3-base"
                revision = "a0484667b22365f84929a935b5e50a51f71f159d"
                lr = 3e-5
                epochs = 3
                batch_size = 32
                warmup_ratio = 0.06
                ```
                """)
            ),
            u(
                d("""
                Amara's one firm request: a per-category error analysis, with a confusion matrix, before she
                signs off on the draft.
                """),
                key="advisor-ask",
            ),
            a(
                d("""
                A row-normalised confusion matrix reads best for 14 classes — each row shows where a category's
                reports went:

                ```python
                import matplotlib.pyplot as plt
                import numpy as np
                from sklearn.metrics import confusion_matrix

                def plot_confusion(y_true: np.ndarray, y_pred: np.ndarray, labels: list[str], path: str) -> None:
                    cm = confusion_matrix(y_true, y_pred, labels=range(len(labels)), normalize="true")
                    fig, ax = plt.subplots(figsize=(7, 6))
                    im = ax.imshow(cm, cmap="Greys", vmin=0, vmax=1)
                    ax.set_xticks(range(len(labels)), labels, rotation=60, ha="right", fontsize=7)
                    ax.set_yticks(range(len(labels)), labels, fontsize=7)
                    ax.set_xlabel("predicted")
                    ax.set_ylabel("gold")
                    for i in range(len(labels)):
                        for j in range(len(labels)):
                            if cm[i, j] >= 0.05:
                                colour = "white" if cm[i, j] > 0.5 else "black"
                                ax.text(j, i, f"{cm[i, j]:.2f}", ha="center", va="center", fontsize=6, color=colour)
                    fig.colorbar(im, ax=ax, fraction=0.046)
                    fig.tight_layout()
                    fig.savefig(path, dpi=300)
                    plt.close(fig)
                ```

                Only cells ≥ 0.05 get a number, so the figure shows the confusions rather than a wall of
                zeros. For the error analysis text, pull 20 misclassified examples from each of the three
                biggest off-diagonal cells and categorise why they went wrong.
                """)
            ),
            u(
                d("""
                Second ablation for the paper: a frozen encoder, with only the classification head trained. Shows
                how much the fine-tuning itself matters.
                """),
                key="abl-2",
            ),
            a(
                d("""
                ```python
                def freeze_encoder(model: torch.nn.Module) -> int:
                    trainable = 0
                    for name, param in model.named_parameters():
                        param.requires_grad = name.startswith("classifier") or name.startswith("pooler")
                        trainable += param.numel() if param.requires_grad else 0
                    print(f"trainable parameters: {trainable:,}", flush=True)
                    return trainable
                ```

                With the encoder frozen, raise the learning rate a lot — the head alone trains fine at 1e-3 —
                and pass only trainable parameters to the optimizer:

                ```python
                optimizer = torch.optim.AdamW((p for p in model.parameters() if p.requires_grad), lr=1e-3)
                ```

                The result is effectively a linear probe on the pretrained representations, which is the
                comparison reviewers understand.
                """)
            ),
            u("Frozen: 0.58 macro-F1. Worse than TF-IDF (0.71 on the new data). Is that a bug?"),
            a(
                d("""
                Probably not. A linear probe on a multilingual encoder's [CLS] token without any fine-tuning is
                often weak for topic-like classification — the representation isn't trained to separate your
                categories, and TF-IDF with character n-grams is a strong feature set for short, keyword-heavy
                texts. It's a useful result for the paper: "the encoder's value is in fine-tuning, not in its
                frozen features". Sanity check: mean-pool the token embeddings instead of using [CLS]; if that
                jumps to ~0.65, mention both.
                """)
            ),
            u(
                d("""
                Review my collate fn? I wrote it for the mdeberta runs to pad by hand:

                ```python
                def collate(batch):
                    n = max(len(x["input_ids"]) for x in batch)
                    ids = torch.zeros(len(batch), n, dtype=torch.long)
                    mask = torch.zeros(len(batch), n, dtype=torch.long)
                    for i, x in enumerate(batch):
                        ids[i, : len(x["input_ids"])] = x["input_ids"]
                        mask[i, : len(x["input_ids"])] = 1
                    labels = torch.tensor([x["labels"] for x in batch])
                    return {"input_ids": ids, "attention_mask": mask, "labels": labels}
                ```
                """)
            ),
            a(
                d("""
                Close, with one real bug and two small things:

                1. **Padding with 0.** For mDeBERTa the pad id is 0, so it works by luck — for XLM-R it's 1, and
                   0 is `<s>`. With the attention mask correct the model mostly ignores it, but don't rely on
                   that; use the tokenizer's id.
                2. No type hints, and CI will fail on it.
                3. `torch.tensor` on a list of 0-d tensors is slow and warns; `torch.stack` is cleaner.

                ```python
                def collate(batch: list[dict[str, torch.Tensor]], pad_id: int) -> dict[str, torch.Tensor]:
                    n = max(len(x["input_ids"]) for x in batch)
                    ids = torch.full((len(batch), n), pad_id, dtype=torch.long)
                    mask = torch.zeros((len(batch), n), dtype=torch.long)
                    for i, x in enumerate(batch):
                        length = len(x["input_ids"])
                        ids[i, :length] = x["input_ids"]
                        mask[i, :length] = 1
                    labels = torch.stack([x["labels"] for x in batch])
                    return {"input_ids": ids, "attention_mask": mask, "labels": labels}
                ```

                and `functools.partial(collate, pad_id=tokenizer.pad_token_id)` when building the loader.
                """)
            ),
            u("Oof, the xlm-r runs used this too. Do I need to rerun them?"),
            a(
                d("""
                Check first: were the xlm-r runs from before you wrote this collate, when the loader used
                `DataCollatorWithPadding`? If they used the Hugging Face collator, they're fine. If some used
                yours, rerun one seed with the fix; if it's within the seed standard deviation, note it and move
                on rather than burning 60 GPU-hours.
                """)
            ),
            u("They were on DataCollatorWithPadding. Phew."),
            a("Good — then only the mdeberta runs used it, and pad id 0 is right for that tokenizer."),
        ],
    ),
    Session(
        "2026-03-05T11:30:00Z",
        [
            u(
                d("""
                Tried mdeberta on the V100 partition because the A100s were full. Loss goes NaN in epoch 1:

                ```
                step  400  loss 1.2043  lr 2.98e-05
                step  450  loss 1.1517  lr 2.98e-05
                step  500  loss nan     lr 2.97e-05
                step  550  loss nan     lr 2.97e-05
                ```

                only change: --precision fp16 because V100 has no bf16
                """)
            ),
            a(
                d("""
                DeBERTa-v3 is known to overflow in fp16: some attention scores exceed fp16's range (max ~65504),
                and the loss turns NaN a few hundred steps in. bf16 has fp32's range, which is why the A100 runs
                were fine. On V100s, your options:

                ```python
                scaler = torch.cuda.amp.GradScaler()
                with torch.autocast("cuda", dtype=torch.float16):
                    loss = model(**batch).loss
                scaler.scale(loss).backward()
                scaler.unscale_(optimizer)
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                scaler.step(optimizer)
                scaler.update()
                ```

                A `GradScaler` handles gradient underflow but not the forward-pass overflow, so it may still
                fail for DeBERTa. The reliable fix is fp32 on V100 (about 2× slower) — or waiting for an A100.
                Whatever you pick, don't mix precisions across the seeds of one reported config.
                """)
            ),
            u("fine, back to the A100s, I'll queue behind Tobias."),
            a("Wise. A night's wait costs less than explaining a precision mismatch in the appendix."),
            u(
                d("""
                Error analysis is turning up label noise. Some "confident mistakes" from the mdeberta model:

                ```
                report_id  gold              pred          p(pred)  text
                A-118822   noise             animal        0.97     "dog barking all night next door again"
                L-440913   water_leak        drainage_...  0.95     "drain outside no 14 overflowing onto road"
                V-092211   parking           abandoned_v.  0.96     "coche sin matrícula lleva 3 meses aparcado"
                ```

                I think the model is right on at least two of these.
                """)
            ),
            a(
                d("""
                It is, in my reading: the second is a drainage report, and the third (a car without plates
                parked for three months) is an abandoned vehicle. The first is genuinely ambiguous — barking is
                a noise complaint in most cities' taxonomies, but an animal one in some.

                A systematic way to find these: out-of-fold predictions on the training set, and flag examples
                where the model confidently disagrees with the label (the idea behind confident learning):

                ```python
                import numpy as np
                import pandas as pd

                def suspicious_labels(oof_probs: np.ndarray, labels: np.ndarray, threshold: float = 0.9) -> np.ndarray:
                    pred = oof_probs.argmax(axis=1)
                    confident = oof_probs.max(axis=1) >= threshold
                    return np.flatnonzero(confident & (pred != labels))

                oof = np.load("runs/oof_mdeberta_s1337.npy")  # 5-fold out-of-fold probabilities
                flags = suspicious_labels(oof, train.label_id.to_numpy())
                train.iloc[flags][["report_id", "label", "text"]].to_csv("analysis/suspicious.csv", index=False)
                ```

                The 5-fold out-of-fold pass costs five extra trainings, so ~45 GPU-hours for mdeberta. Running
                it on xlm-r instead is cheaper and finds mostly the same examples.
                """)
            ),
            u("312 flagged. Amara says the original annotators can relabel 300 of them next week."),
            a(
                d("""
                Do it blind: give the annotators the texts without the old label or the model's guess, in a
                shuffled order, mixed with ~50 unflagged examples as controls. Then you can report how often the
                relabel agreed with the old label, with the model, or with neither — and the controls tell you
                whether annotators simply drift over time. Keep the old labels in a column; don't overwrite.
                """)
            ),
            u(
                d("""
                Budget check from the accounting page: we've used 1,240 GPU-hours so far this term. Tobias's
                jobs are on a different project code, so that's all mine.
                """),
                key="gpu-used",
            ),
            a(
                d("""
                That leaves 760 of the 2,000. What's still to run, at ~9 GPU-hours per mdeberta run:

                | Work | Runs | GPU-hours |
                |---|---|---|
                | Relabelled-data retrain, 3 seeds | 3 | ~27 |
                | Third ablation, 3 seeds | 3 | ~27 |
                | Main table reruns if the relabel changes things | up to 9 | ~80 |
                | Final evaluation on the sealed split | — | ~1 |
                | Slack for mistakes | — | ~100 |

                Roughly 235 hours — comfortably inside what's left. The remaining ~500 could go to a
                large-model run for one row of the table, if Amara wants one.
                """)
            ),
            u("She might. mdeberta large doesn't exist though, right?"),
            a(
                d("""
                Right — there's no multilingual DeBERTa-v3 large. The options would be XLM-R large (560M
                parameters; ~3× the cost of base per run) or a multilingual decoder model with a classification
                head, which is a different paper. XLM-R large with one seed would be ~30 GPU-hours and answers
                "does size help" for a reviewer.
                """)
            ),
            u("Relabel results: of the 300, annotators sided with the old label 96 times, the model 171, neither 33."),
            a(
                d("""
                That's a strong result for the paper: in 171 of the 300 flagged cases the model's prediction was
                judged correct, so a meaningful part of the "errors" in the confident tail were label errors.
                Controls matter for the interpretation — how did the 50 unflagged examples come out? If the
                annotators kept nearly all of those, the 171 isn't just drift.
                """)
            ),
            u("48 of 50 controls kept their label."),
            a(
                d("""
                Then the relabelling is trustworthy. Use the corrected labels for training from here on, keep
                the originals in `label_v1`, and retrain the main model — the relabel retrain in the budget
                table.
                """)
            ),
            u("long run was 18 km on Sunday, legs are dead. the marathon plan says 21 next week"),
            a("Then sit for the error analysis and let the GPUs do the running this week."),
        ],
    ),
    Session(
        "2026-03-16T09:20:00Z",
        [
            u(
                d("""
                The workshop extended the submission deadline — it's April 17 now. Good, because the relabelling
                took longer than planned and the retrain isn't done.
                """),
                key="deadline-new",
            ),
            a(
                d("""
                An extra week changes the plan nicely. Revised:

                - **by Mar 22**: relabel retrain + third ablation done; main table frozen
                - **Mar 23–27**: final evaluation on the sealed split, figures, error analysis section
                - **Mar 30–Apr 3**: full draft to Amara
                - **Apr 6–14**: revisions
                - **Apr 15–17**: polish, anonymity check, submit with a day to spare

                Don't spend the week on more experiments: extensions are best used for writing.
                """)
            ),
            u("Results table in LaTeX please, booktabs style. Numbers so far (validation, mean of 3 seeds):"),
            u(
                d("""
                ```
                tfidf+lr        acc 0.81  macro 0.71
                xlmr-base       acc 0.89  macro 0.82
                mdeberta-base   acc 0.91  macro 0.84
                - no spanish    acc 0.88  macro 0.79
                - frozen enc    acc 0.70  macro 0.58
                ```
                """)
            ),
            a(
                d("""
                ```latex
                \\begin{table}[t]
                  \\centering
                  \\small
                  \\begin{tabular}{lcc}
                    \\toprule
                    Model & Accuracy & Macro-F1 \\\\
                    \\midrule
                    TF-IDF + LR & 0.81 & 0.71 \\\\
                    XLM-R base & 0.89 & 0.82 \\\\
                    mDeBERTa-v3 base & \\textbf{0.91} & \\textbf{0.84} \\\\
                    \\midrule
                    \\quad -- without Spanish training data & 0.88 & 0.79 \\\\
                    \\quad -- frozen encoder & 0.70 & 0.58 \\\\
                    \\bottomrule
                  \\end{tabular}
                  \\caption{Validation results, mean of three seeds. Ablations modify the mDeBERTa-v3 setup.}
                  \\label{tab:results}
                \\end{table}
                ```

                Once the sealed-split numbers exist, add a second pair of columns (or a second table) for them
                — and add ± standard deviations, either as `0.84\\,{\\scriptsize$\\pm$0.01}` or in a footnote.
                """)
            ),
            u(
                d("""
                Third ablation, Amara's suggestion: no class weighting in the loss, to show what the weights do
                for the rare categories.
                """),
                key="abl-3",
            ),
            a(
                d("""
                A toggle in the loss — the weights are inverse-frequency, normalised to mean 1:

                ```python
                def class_weights(labels: np.ndarray, num_labels: int) -> torch.Tensor:
                    counts = np.bincount(labels, minlength=num_labels).astype(np.float64)
                    weights = counts.sum() / (num_labels * np.maximum(counts, 1))
                    return torch.tensor(weights / weights.mean(), dtype=torch.float32)

                def make_loss(labels: np.ndarray, num_labels: int, weighted: bool) -> torch.nn.Module:
                    weight = class_weights(labels, num_labels) if weighted else None
                    return torch.nn.CrossEntropyLoss(weight=weight.to("cuda") if weight is not None else None)
                ```

                and compute the loss from `outputs.logits` yourself instead of passing `labels` to the model,
                since the model's built-in loss is unweighted. Report per-class F1 for the three rarest classes
                in both arms — that's where the story is; macro-F1 alone may move only a little.
                """),
                key="rc-req-weights",
            ),
            u(
                d("""
                Unweighted: macro 0.82, but abandoned_vehicle drops from 0.70 to 0.51 and gas_smell from 0.74 to
                0.62. Accuracy actually goes up a hair, 0.91 → 0.92.
                """)
            ),
            a(
                d("""
                That's the textbook trade-off, and a clean one to show: the unweighted model buys a little
                accuracy on frequent classes at a large cost on the rare ones, which for routing are the
                safety-relevant categories (gas smells especially). One sentence in the paper can carry it:
                "Without class weighting, accuracy rises slightly (0.92 vs 0.91) while F1 on the two rarest
                categories falls by 0.19 and 0.12."
                """)
            ),
            u("How do I describe the hyperparameters compactly? Reviewers want them, the page limit hates them."),
            a(
                d("""
                One paragraph in the setup section, details in an appendix table. Paragraph:

                > We fine-tune all encoders with AdamW (learning rate 3e-5, weight decay 0.01), a linear schedule
                > with 6% warmup, batch size 32, and a maximum length of 256 tokens, for 3 epochs, selecting the
                > checkpoint with the best validation macro-F1. Learning rate and epochs were chosen on validation
                > data (Appendix A). All results are means over three seeds.

                The appendix table lists everything else (seeds, hardware, GPU-hours per run, library versions
                from `uv.lock`).
                """)
            ),
            u("Lovely. The GPU-hours line will make Amara happy, she's on the cluster committee."),
            a("Then add the total for the whole project too; committees like seeing compute reported."),
        ],
    ),
    Session(
        "2026-03-27T16:00:00Z",
        [
            u("Everything's frozen: configs, checkpoints, code at tag v0.9. Time to unseal the test split."),
            a(
                d("""
                The moment the sealing was for. One script, run once per frozen checkpoint, with a bootstrap
                interval so the paper can say how certain the numbers are:

                ```python
                import numpy as np
                from sklearn.metrics import accuracy_score, f1_score

                from civictext.data import load_split
                from civictext.seeding import seed_everything

                def bootstrap(y: np.ndarray, p: np.ndarray, n: int = 2000, seed: int = 1337) -> tuple[float, float]:
                    rng = np.random.default_rng(seed)
                    scores = []
                    for _ in range(n):
                        idx = rng.integers(0, len(y), len(y))
                        scores.append(f1_score(y[idx], p[idx], average="macro"))
                    low, high = np.percentile(scores, [2.5, 97.5])
                    return float(low), float(high)

                seed_everything()
                test = load_split("test", final=True)
                for name, ckpt in CHECKPOINTS.items():
                    preds = predict(ckpt, test.text.tolist())
                    y = test.label_id.to_numpy()
                    low, high = bootstrap(y, preds)
                    print(f"{name:24s} acc {accuracy_score(y, preds):.2f} "
                          f"macro {f1_score(y, preds, average='macro'):.2f} [{low:.2f}, {high:.2f}]")
                ```

                Save the predictions themselves too (`np.save`), so later analysis never needs to rerun the
                models on the test split.
                """)
            ),
            u(
                d("""
                ```
                tfidf+lr                 acc 0.81 macro 0.70 [0.68, 0.72]
                xlmr-base                acc 0.89 macro 0.81 [0.79, 0.83]
                mdeberta-base            acc 0.91 macro 0.83 [0.81, 0.85]
                mdeberta-no-spanish      acc 0.87 macro 0.78 [0.76, 0.80]
                mdeberta-frozen          acc 0.70 macro 0.57 [0.55, 0.59]
                mdeberta-unweighted      acc 0.92 macro 0.81 [0.79, 0.83]
                ```
                """)
            ),
            a(
                d("""
                Test numbers sit 0.00–0.01 below validation across the board — exactly what you'd expect when
                model selection happened on validation and nothing leaked. The ranking of systems is identical.
                The intervals for xlm-r and mdeberta overlap slightly, so phrase the comparison carefully:
                "mDeBERTa-v3 outperforms XLM-R by 0.02 macro-F1 on both validation and test (bootstrap 95% CIs
                in Table 2)" rather than claiming significance you didn't test. A paired bootstrap on the
                difference would let you claim it properly — it's cheap, since the predictions are saved.
                """)
            ),
            u("Paired bootstrap please, mdeberta vs xlmr."),
            a(
                d("""
                ```python
                def paired_bootstrap(y: np.ndarray, a: np.ndarray, b: np.ndarray, n: int = 10000,
                                     seed: int = 1337) -> float:
                    rng = np.random.default_rng(seed)
                    wins = 0
                    for _ in range(n):
                        idx = rng.integers(0, len(y), len(y))
                        wins += f1_score(y[idx], a[idx], average="macro") > f1_score(y[idx], b[idx], average="macro")
                    return 1 - wins / n  # estimated p-value that a is not better than b

                p = paired_bootstrap(y, np.load("preds/mdeberta.npy"), np.load("preds/xlmr.npy"))
                print(f"p = {p:.3f}")
                ```
                """),
                key="rc-req-paired",
            ),
            u(
                d("""
                ```
                Traceback (most recent call last):
                  File "analysis/paired.py", line 14, in <module>
                    p = paired_bootstrap(y, np.load("preds/mdeberta.npy"), np.load("preds/xlmr.npy"))
                  File "analysis/paired.py", line 8, in paired_bootstrap
                    wins += f1_score(y[idx], a[idx], average="macro") > f1_score(y[idx], b[idx], average="macro")
                IndexError: index 6137 is out of bounds for axis 0 with size 6100
                ```
                """)
            ),
            a(
                d("""
                One of the prediction files has a different length from `y`: 6,100 predictions against a test
                set of more rows. Likely the xlm-r predictions were saved before the Valencia batch's sealed
                rows were added. Check:

                ```python
                for name in ("mdeberta", "xlmr"):
                    print(name, np.load(f"preds/{name}.npy").shape, len(y))
                ```

                If so, regenerate the xlm-r predictions on the current sealed file — and add an `assert
                len(preds) == len(y)` to the evaluation script, so a stale file can't slip through again.
                """)
            ),
            u("Yes, stale xlmr file from a dry run of the script. Regenerated: p = 0.004."),
            a(
                d("""
                Then the claim is safe: "the difference is significant under a paired bootstrap (p < 0.01)".
                Mention the number of resamples in a footnote. And it's good that the stale file failed loudly
                rather than silently evaluating on the wrong rows.
                """)
            ),
            u("Should the ablations get test numbers too, or only the main models?"),
            a(
                d("""
                All of them — you've already computed them, and reporting test numbers only for the rows that
                look good is the selective reporting the sealed split was meant to prevent. Put validation and
                test side by side in one table; it also shows the consistency between the two.
                """)
            ),
        ],
    ),
    Session(
        "2026-04-08T10:10:00Z",
        [
            u(
                d("""
                Amara's comments on the draft are in. Main one: it's 1.2 pages over the 8-page limit. She also
                wants the confusion matrix bigger and the related work shorter.
                """)
            ),
            a(
                d("""
                1.2 pages is a normal overrun for a first full draft. Places that usually give the most back,
                in order:

                | Cut | Saves | Cost |
                |---|---|---|
                | Move hyperparameter details and the epoch sweep to the appendix | ~0.3 page | none |
                | Related work: one paragraph per theme instead of per paper | ~0.3 page | small |
                | Merge the two results tables into one | ~0.2 page | none |
                | Dataset section: annotation guidelines to the appendix | ~0.3 page | none |
                | Tighten figure captions and `\\vspace` hacks | ~0.1 page | don't overdo it |

                The confusion matrix getting bigger costs space, so make it a full-column figure and drop
                the per-class F1 bar chart, whose information the matrix's diagonal already carries.
                """)
            ),
            u("The font in figure 2 is unreadable in the PDF. It looked fine on screen."),
            a(
                d("""
                It was drawn at one size and scaled down by LaTeX. Draw figures at the size they'll be printed —
                one column of the ACL template is about 3.1 inches — and set the fonts to match the paper's
                body text:

                ```python
                import matplotlib as mpl

                mpl.rcParams.update({
                    "figure.figsize": (3.1, 2.6),
                    "font.size": 8,
                    "axes.labelsize": 8,
                    "xtick.labelsize": 7,
                    "ytick.labelsize": 7,
                    "font.family": "serif",
                    "pdf.fonttype": 42,
                    "savefig.bbox": "tight",
                })
                ```

                Then include it with `\\includegraphics[width=\\columnwidth]{...}` and it's printed at 1:1.
                Save as PDF, not PNG; `pdf.fonttype` 42 embeds the fonts properly, which some submission
                systems check.
                """)
            ),
            u(
                d("""
                ```
                Traceback (most recent call last):
                  File "figures/confusion.py", line 3, in <module>
                    import matplotlib as mpl
                ModuleNotFoundError: No module named 'matplotlib'
                ```

                on the cluster, works on my laptop
                """)
            ),
            a(
                d("""
                matplotlib is probably only in your laptop's environment — added with a one-off install rather
                than to the project. Add it to the project so the lock file carries it everywhere:

                ```bash
                uv add matplotlib
                git add pyproject.toml uv.lock
                git commit -m "Add matplotlib for figures"
                ```

                then `uv sync` on the cluster.
                """)
            ),
            u("Amara also asks whether we can release the trained model. The reports have names and addresses."),
            a(
                d("""
                That's the real question: fine-tuned models can memorise rare strings from training data, and
                addresses plus names in citizen reports are exactly the kind of thing that's both rare and
                sensitive. Options, safest first:

                1. Release code, configs and the split definitions, but not the model or data.
                2. Retrain on a scrubbed copy (names, phone numbers, house numbers replaced by placeholders)
                   and release that model, stating the scrubbing method.
                3. Release on request under a data use agreement.

                Whichever you choose, it's a question for your university's data protection office and the
                cities' data agreements, not only for the lab. For the paper, a sentence saying which of these
                you'll do is enough for now.
                """)
            ),
            u("Option 1 for the submission, option 2 maybe for camera-ready. Thanks."),
            a("A sound order. The scrubbed retrain costs ~30 GPU-hours, well within what's left."),
            u("Related work cut done: 0.4 pages. Appendix moves: 0.6. Merged tables: 0.2. Exactly 8 pages now."),
            a("Perfect — and nothing cut from the results or the error analysis. Send it back to Amara."),
        ],
    ),
    Session(
        "2026-04-18T08:30:00Z",
        [
            u("Submitted last night, 21:10 local, almost three hours before the deadline. First time ever."),
            a(
                d("""
                Congratulations — and submitting early is its own achievement. While it's fresh, a few
                housekeeping steps that make the camera-ready (and any rebuttal) painless:

                ```bash
                git tag -a submission-2026-04 -m "TextApps submission"
                git push origin submission-2026-04
                uv export --frozen > requirements-submission.txt
                tar --zstd -cf runs-submission.tar.zst runs/ preds/ configs/
                ```

                Keep the predictions files: reviewers' questions ("how does it do on Spanish reports about
                parking?") can then be answered from saved predictions without touching a GPU.
                """)
            ),
            u("Done. Now I'm going to sleep for a week. Well, after the half marathon tomorrow."),
            a("Good luck tomorrow! Pace the first 10 km slower than feels right — same advice as for the sweep."),
            u("Ha. Last thing: remind me what to say if a reviewer asks why not a large model?"),
            a(
                d("""
                Three points, in that order: (1) routing runs at city scale on modest hardware, so the base-size
                models are the ones a city would deploy; (2) the gap between systems is mostly in the rare
                classes, where more labels helped more than more parameters did (the no-Spanish ablation shows
                the value of data); (3) if you run the XLM-R large row before the rebuttal, cite its number.
                """)
            ),
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
    Question(
        "What's our best validation macro-F1 so far?",
        "0.84",
        ["f1-new"],
        "knowledge-update",
        superseded=["f1-old", "f1-sweep"],
    ),
    Question(
        "When is the workshop paper due?",
        "April 17",
        ["deadline-new"],
        "knowledge-update",
        superseded=["deadline-old"],
    ),
    Question(
        "Which ablations did we run for the paper?",
        "without any Spanish data; frozen encoder; no class weighting",
        ["abl-1", "abl-2", "abl-3"],
        "multi-turn",
    ),
    Question(
        "Who's my advisor, and what did she insist on before signing off the draft?",
        "Amara Lindqvist; per-category error analysis",
        ["advisor", "advisor-ask"],
        "multi-turn",
    ),
    Question(
        "How many GPU-hours does the project get this term, and how many had I used by March?",
        "2,000 GPU-hours; 1,240",
        ["budget", "gpu-used"],
        "multi-turn",
    ),
    Question(
        "Add an option to the training-set filter so I can leave out one city instead of a language.",
        "drop_language",
        ["rc-req-select"],
        "request-context",
    ),
    Question(
        "Make the per-class loss weights the square root of what they are now, so rare classes are pushed less.",
        "normalised to mean 1",
        ["rc-req-weights"],
        "request-context",
    ),
    Question(
        "Make the significance test we ran for mdeberta vs xlm-r also report the F1 difference with an interval.",
        "estimated p-value",
        ["rc-req-paired"],
        "request-context",
    ),
]

CHAT = Chat(name="ws-08-ml-training", sessions=SESSIONS, questions=QUESTIONS)
