"""The local model run by ONNX Runtime: exported once from the installed weights, then loaded
without PyTorch.

A query's vector is on the critical path of every search. PyTorch spends most of a short
forward pass dispatching operators from Python and takes the interpreter lock back between
them, so a search's own work on another thread slows it down; ONNX Runtime runs the whole
graph in C++ with the lock released (about 9 against 14 ms for a question on one thread, 20
against 50 ms beside a busy Python thread). The graph is exported from the same weights with
PyTorch's exporter the first time a process needs it, checked against sentence-transformers'
own vectors, and kept in ``HELIX_DATA_DIR/models``; later processes only load the file.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import tempfile
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

logger = logging.getLogger(__name__)

# The exported graph's inputs, in the order the transformer takes them.
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
OPSET = 17
# A graph takes any number of texts of any length.
DYNAMIC_AXES = {**{name: {0: "batch", 1: "tokens"} for name in INPUTS}, "sentence_embedding": {0: "batch"}}
# Texts the export is checked on: short, long past the model's 256 tokens, cased, accented, and
# a batch whose padding the mask must hide.
PROBES = (
    "ok",
    "When did Melanie paint the sunrise she showed her friends?",
    "Zoë's café in Málaga serves crème brûlée 🍮 on Sundays",
    "Caroline mentors young people at the LGBTQ centre " * 40,
)
# A text shorter than this share of its batch's longest starts the next batch.
PADDED_SHARE = 0.8
# Largest difference from sentence-transformers' vectors the export may show (seen: 1e-6).
TOLERANCE = 1e-4


class OnnxUnavailable(Exception):
    """The graph could not be exported, loaded or checked; the caller runs the model in PyTorch."""


class OnnxModel:
    """Mean-pooled, unit-norm sentence vectors from the exported graph and the model's tokenizer."""

    def __init__(self, session: Any, tokenizer: Any, *, batch_size: int) -> None:
        self.session = session
        self.tokenizer = tokenizer
        self.batch_size = batch_size
        self.dimension = int(session.get_outputs()[0].shape[-1])

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Texts are run longest first in batches of similar length, so padding stays short: a
        padded token costs what a real one does, and a batch saves little besides (on one thread,
        twenty 40-token texts take 9.0 ms each, one alone 10.0 ms), so a batch ends where a text
        is shorter than ``PADDED_SHARE`` of its first (a conversation's turns of 5 to 120 tokens
        padded to the longest took twice as long as one by one)."""
        encodings = self.tokenizer.encode_batch(list(texts))
        order = sorted(range(len(texts)), key=lambda i: -len(encodings[i].ids))
        vectors = np.empty((len(texts), self.dimension), dtype=np.float32)
        chunk: list[int] = []
        for index in order:
            if chunk and (
                len(chunk) == self.batch_size or len(encodings[index].ids) < PADDED_SHARE * len(encodings[chunk[0]].ids)
            ):
                vectors[chunk] = self._run([encodings[i] for i in chunk])
                chunk = []
            chunk.append(index)
        if chunk:
            vectors[chunk] = self._run([encodings[i] for i in chunk])
        return vectors

    def _run(self, encodings: list[Any]) -> np.ndarray:
        width = max(len(encoding.ids) for encoding in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        for row, encoding in enumerate(encodings):
            ids[row, : len(encoding.ids)] = encoding.ids
            mask[row, : len(encoding.ids)] = 1
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        return self.session.run(None, feed)[0]


def onnx_model_load(*, model_dir: Path, cache_dir: Path | None, threads: int, batch_size: int) -> OnnxModel:
    """The exported graph from ``cache_dir`` (exported there first if missing), ready to run.

    Raises OnnxUnavailable when ONNX Runtime is missing or the export fails or differs."""
    try:
        import onnxruntime
    except ImportError as exc:
        raise OnnxUnavailable(f"onnxruntime is not installed: {exc}") from exc
    graph = _graph(model_dir=model_dir, cache_dir=cache_dir)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3  # warnings about unused initialisers are the exporter's, not ours
    try:
        session = onnxruntime.InferenceSession(graph, options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own untyped errors for a bad graph
        raise OnnxUnavailable(f"the exported model could not be loaded: {exc}") from exc
    return OnnxModel(session, _tokenizer(model_dir), batch_size=batch_size)


def _tokenizer(model_dir: Path) -> Any:
    """The model's own tokenizer, cut at sentence-transformers' ``max_seq_length``, unpadded:
    a batch is padded by OnnxModel to its longest text."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    limit = json.loads((model_dir / "sentence_bert_config.json").read_text())["max_seq_length"]
    tokenizer.enable_truncation(max_length=limit)
    tokenizer.no_padding()
    return tokenizer


def _graph(*, model_dir: Path, cache_dir: Path | None) -> bytes | str:
    """The path of the exported graph in ``cache_dir``, or its bytes when it cannot be kept there."""
    if cache_dir is None:
        return _export(model_dir)
    path = cache_dir / _file_name(model_dir)
    if path.exists():
        return str(path)
    graph: bytes | None = None
    try:
        cache_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        with _export_lock(cache_dir):
            if not path.exists():  # another process may have exported it while this one waited
                graph = _export(model_dir)
                _write_atomically(path, graph)
                _forget_older_exports(path)
    except OSError as exc:
        logger.warning("the exported model cannot be kept in %s (%s); exporting it in memory", cache_dir, exc)
        return graph if graph is not None else _export(model_dir)
    return str(path)


def _file_name(model_dir: Path) -> str:
    """Named by the weights it was exported from: new weights export again."""
    weights = (model_dir / "model.safetensors").stat()
    return f"{model_dir.parent.name}-{weights.st_size}-{weights.st_mtime_ns}-opset{OPSET}.onnx"


def _forget_older_exports(path: Path) -> None:
    """Exports of weights since replaced (a reinstalled package) are 90 MB each that nothing reads."""
    prefix = path.name.split("-", 1)[0]
    for older in path.parent.glob(f"{prefix}-*.onnx"):
        if older != path:
            older.unlink(missing_ok=True)


@contextlib.contextmanager
def _export_lock(cache_dir: Path):
    """One process exports; the others (web workers and the task worker starting together) wait."""
    with open(cache_dir / ".export.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _write_atomically(path: Path, data: bytes) -> None:
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".export-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def _export(model_dir: Path) -> bytes:
    """The transformer with mean pooling and normalisation as one ONNX graph, checked against
    sentence-transformers' vectors for the probe texts."""
    try:
        import onnxruntime
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise OnnxUnavailable(f"the model cannot be exported: {exc}") from exc
    try:
        reference = SentenceTransformer(str(model_dir), device="cpu")
        graph = _traced_graph(reference)
        session = onnxruntime.InferenceSession(graph, providers=["CPUExecutionProvider"])
    except Exception as exc:  # unreadable weights, the exporter's many errors, onnxruntime's untyped ones
        raise OnnxUnavailable(f"the model could not be exported: {exc}") from exc
    exported = OnnxModel(session, _tokenizer(model_dir), batch_size=8)
    expected = reference.encode(list(PROBES), normalize_embeddings=True, convert_to_numpy=True)
    for got in (exported.embed(PROBES), np.vstack([exported.embed([text]) for text in PROBES])):
        difference = float(np.abs(got - expected).max())
        if difference > TOLERANCE:
            raise OnnxUnavailable(f"the exported model's vectors differ from the model's by {difference:.1e}")
    return graph


def _traced_graph(reference: Any) -> bytes:
    """The exporter's graph; any failure of it (it raises many types) is the caller's to turn down."""
    import torch

    features = reference.preprocess(["a probe text to export the model with"])
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "model.onnx"
        with warnings.catch_warnings(), _quiet("transformers"):
            # The tracer warns of the branches it records as constants; the probes check them.
            warnings.simplefilter("ignore")
            torch.onnx.export(
                _pooled(reference[0].auto_model).eval(),
                tuple(features[name] for name in INPUTS),
                path,
                input_names=list(INPUTS),
                output_names=["sentence_embedding"],
                dynamic_axes=DYNAMIC_AXES,
                opset_version=OPSET,
                dynamo=False,  # the TorchScript exporter: the dynamo one needs onnxscript
            )
        return path.read_bytes()


@contextlib.contextmanager
def _quiet(name: str):
    log = logging.getLogger(name)
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        yield
    finally:
        log.setLevel(level)


def _pooled(transformer: Any) -> Any:
    """The transformer, mean pooling over the mask, and unit length: sentence-transformers' model
    as one module for the exporter."""
    import torch

    class Pooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.transformer = transformer

        def forward(self, input_ids, attention_mask, token_type_ids):
            hidden = self.transformer(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            mean = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)
            return torch.nn.functional.normalize(mean, p=2.0, dim=1)

    return Pooled()
