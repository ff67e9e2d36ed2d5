"""`envplan explain` against real reports (tests/data/explain-corpus, see its README) and pinned messages.

The corpus split is fixed by a hash of each URL: "dev" is what the rules were tuned on, "held-out" was measured once
after the tuning (97%), "fresh" was collected afterwards and measured before any change (80%; then tuned). Round 2
added batches A to F, each collected from new searches and measured once before its misses were looked at
(measurements.toml: A 59% and B 63% with the old rules, B 69% after tuning on A, C 92% after tuning on A and B, D 69%
after tuning on A to C, E 73% after tuning on A to D, F 65% after tuning on A to E); batches A to F were tuned on
afterwards. Batch G (85% first) is held out: round G changed the method (structural readers from the kinds of A-F's
misses, tests/test_explain_prose.py) and measured G once more without tuning on it (90%); it is not in TUNED, and
its only floor is its first measurement. Batch H (85% first), collected after round G, was measured with round G's
rules before any change; round H's structural changes were written from its misses (95% after), so it is tuned on.
Batch I (89% first), collected after round H, was measured once with round H's rules; round I's structural changes
were then written from its misses (93% after), so it is tuned on. Batch J (80% first), collected after round I, was
measured once with round I's rules; round J's structural changes were written from its misses (94% after), so it is
tuned on too; so are batch K (78% first with round J's rules, 90% after round K), batch L (68% first with round K's
rules, 88% after round L), batch M (77% first with round L's rules, 88% after round M) and batch N (81% first with
round M's rules, 89% after round N). Batch O (88% first, GitHub only), collected after round N, is held out: not in
TUNED, no floor of its own beyond its first measurement.
The thresholds below are floors the current rules clear with little room, so a rule change that costs recall or
precision anywhere fails here; a measured batch may never fall below its first score. None of these floors measures
generalization any more: only a batch nobody has tuned on can (benchmarks/RESULTS.md, "First measurement of each
batch").
"""

from __future__ import annotations

import subprocess
from functools import cache
from pathlib import Path

import pytest
from explaincorpus import (
    HELD_OUT_BATCHES,
    Measurement,
    Report,
    Score,
    load_measurements,
    load_readings,
    load_reports,
    parts,
    read_by_reader,
    score,
    table,
)
from packaging.version import Version

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from helpers import ROOT

REFS = {
    "extension-torch-mismatch",
    "cxx11-abi-mismatch",
    "companion-mismatch",
    "arch-not-compiled",
    "cuda-runtime-missing",
    "driver-too-old",
    "toolkit-torch-cuda-mismatch",
    "cpu-only-build",
    "build-isolation-missing-torch",
    "glibc-too-old",
    "python-unsupported",
}
REPORTS = load_reports()
MEASUREMENTS = load_measurements()
READINGS = load_readings()
# parts whose misses the rules were tuned on: the aggregate floors below hold on them (today: every part)
TUNED = tuple(p for p in parts(REPORTS) if p not in HELD_OUT_BATCHES)
SYNTHETIC = sorted((ROOT / "tests" / "cases" / "explain").glob("*.log"))


@cache
def demangle(symbol: str) -> str:
    try:
        out = subprocess.run(["c++filt", symbol], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return symbol
    return out or symbol


@pytest.fixture(scope="module")
def scored(kb: KB) -> Score:
    def first(text: str) -> str:
        found = explain_text(text, kb, demangle)
        return found[0].ref if found else "none"

    return score(REPORTS, first)


def test_the_corpus_is_real_varied_and_large_enough() -> None:
    assert len(REPORTS) >= 240
    assert len({r.url for r in REPORTS}) == len(REPORTS), "one report per thread"
    assert {r.cause for r in REPORTS} == REFS | {"none"}
    assert sum(r.cause == "none" for r in REPORTS) >= 30
    assert len({r.project for r in REPORTS if r.source == "github"}) >= 20
    assert all(r.text.strip() and r.url.startswith("http") for r in REPORTS)
    held_out = [r for r in REPORTS if r.part == "held-out"]
    assert 0.25 <= len(held_out) / len([r for r in REPORTS if r.part in ("dev", "held-out")]) <= 0.40
    assert len([r for r in REPORTS if r.part == "fresh"]) >= 40
    batches = ("batch-a", "batch-b", "batch-c", "batch-d", "batch-e", "batch-f", "batch-g", "batch-h", "batch-i")
    for batch in (*batches, "batch-j", "batch-k", "batch-l", "batch-m"):  # batch N's web side is 5 pages
        mine = [r for r in REPORTS if r.part == batch]
        assert len(mine) >= 30 and sum(r.cause == "none" for r in mine) >= 10, batch


def test_every_report_was_read_blind() -> None:
    """Each report has one blind reading (tests/data/explain-corpus/README.md, "What a reader of the text alone
    names"), and the readers agree with themselves where a text came back to another reader."""
    assert set(READINGS) == {r.url for r in REPORTS}
    assert {x.cause for x in READINGS.values()} | {x.guess for x in READINGS.values()} <= REFS | {"none"}
    assert {x.sure for x in READINGS.values()} <= {"high", "medium", "low"}
    twice = [x for x in READINGS.values() if x.again_reader == "other"]
    assert len(twice) >= 100 and sum(x.again == x.cause for x in twice) / len(twice) >= 0.95


def test_where_tuned_the_rules_name_as_many_right_causes_as_a_reader(scored: Score) -> None:
    """The reader is the ceiling the text allows; on the parts the rules were tuned on they must reach it (the gap on
    parts never seen is measured, not asserted: benchmarks/RESULTS.md)."""
    tuned = scored.only(lambda r: r.part in TUNED)
    reader = read_by_reader(tuned.pairs_reports(), READINGS)
    assert tuned.right >= reader.right, (tuned.right, reader.right)
    silent = tuned.recall("none")
    assert silent[0] >= reader.recall("none")[0] - 5, (silent, reader.recall("none"))


@pytest.mark.parametrize(
    ("part", "floor"),
    [
        ("dev", 0.97),
        ("held-out", 0.95),
        ("fresh", 0.95),
        ("batch-a", 0.93),
        ("batch-b", 0.97),
        ("batch-c", 0.94),
        ("batch-d", 0.97),
        ("batch-e", 0.9),
        ("batch-f", 0.93),
        ("batch-h", 0.93),
        ("batch-i", 0.92),
        ("batch-j", 0.93),
        ("batch-k", 0.9),
        ("batch-l", 0.86),  # round AL reads torch.utils.ffi's removal: medicaldetectiontoolkit#67 settled as none
        ("batch-m", 0.87),  # round X relabelled its two triton-on-Windows threads (no Windows wheel)
        ("batch-n", 0.88),
        ("batch-o", 0.97),
        ("batch-p", 0.9),
        ("batch-q", 0.92),
        ("batch-r", 0.94),
        ("batch-s", 0.9),
        ("batch-t", 0.97),
        ("batch-u", 0.92),
        ("batch-v", 0.94),
        ("batch-w", 0.87),
        ("batch-x", 0.9),  # round AD made AutoGPTQ's bare "CUDA extension not installed" silent (Qwen3#558)
        ("batch-y", 0.83),
        ("batch-z", 0.84),
        ("batch-aa", 0.73),
        ("batch-ab", 0.82),  # a reader of the text alone names 204 of its 246 (82.9%)
        ("batch-ac", 0.77),  # a reader of the text alone names 136 of its 170 (80.0%)
        ("batch-ad", 0.74),  # a reader of the text alone names 250 of its 319 (78.4%)
        ("batch-ae", 0.8),  # a reader of the text alone names 95 of its 107 (88.8%)
        ("batch-af", 0.76),  # a reader of the text alone names 36 of its 43 (83.7%)
        ("batch-ag", 0.87),  # a reader of the text alone names 158 of its 182 (86.8%)
        ("batch-ah", 0.77),  # a reader of the text alone names 79 of its 105 (75.2%)
        ("batch-ai", 0.78),  # a reader of the text alone names 53 of its 66 (80.3%)
        ("batch-aj", 0.9),  # a reader of the text alone names 61 of its 67 (91.0%)
        ("batch-ak", 0.76),  # a reader of the text alone names 46 of its 59 (78.0%)
        ("batch-al", 0.85),  # a reader of the text alone names 41 of its 59 (69.5%)
        ("batch-am", 0.82),  # a reader of the text alone names 37 of its 50 (74.0%)
        ("batch-an", 0.8),  # a reader of the text alone names 32 of its 42 (76.2%)
        ("batch-ao", 0.78),  # a reader of the text alone names 47 of its 57 (82.5%)
        ("batch-ap", 0.83),  # a reader of the text alone names 49 of its 56 (87.5%)
        ("batch-aq", 0.84),  # a reader of the text alone names 58 of its 65 (89.2%)
        ("batch-ar", 0.86),  # a reader of the text alone names 56 of its 60 (93.3%)
        ("batch-as", 0.8),  # a reader of the text alone names 47 of its 60 (78.3%)
        ("batch-at", 0.85),  # a reader of the text alone names 68 of its 77 (88.3%)
        ("batch-au", 0.76),  # a reader of the text alone names 38 of its 47 (80.9%)
        ("batch-av", 0.8),  # a reader of the text alone names 53 of its 65 (81.5%)
        ("batch-aw", 0.82),  # a reader of the text alone names 45 of its 53 (84.9%)
        ("batch-ax", 0.86),  # a reader of the text alone names 44 of its 50 (88.0%)
        ("batch-ay", 0.88),  # a reader of the text alone names 16 of its 17 (94.1%); 17 reports: one is 6 points
        ("batch-az", 0.76),  # a reader of the text alone names 51 of its 63 (81.0%)
        ("batch-ba", 0.88),  # a reader of the text alone names 60 of its 65 (92.3%)
        ("batch-bb", 0.87),  # a reader of the text alone names 47 of its 56 (83.9%)
        ("batch-bc", 0.85),  # a reader of the text alone names 54 of its 63 (85.7%)
        ("batch-bd", 0.90),  # a reader of the text alone names 58 of its 65 (89.2%)
        ("batch-be", 0.84),  # a reader of the text alone names 50 of its 59 (84.7%)
        ("batch-bf", 0.85),  # a reader of the text alone names 56 of its 63 (88.9%)
        ("batch-bg", 0.78),  # a reader of the text alone names 47 of its 55 (85.5%)
        ("batch-bh", 0.84),  # a reader of the text alone names 64 of its 78 (82.1%)
        ("batch-bi", 0.87),  # a reader of the text alone names 38 of its 47 (80.9%)
        ("batch-bj", 0.82),  # a reader of the text alone names 52 of its 68 (76.5%)
        ("batch-bk", 0.8),  # a reader of the text alone names 43 of its 52 (82.7%)
        ("batch-bm", 0.89),  # a reader of the text alone names 78 of its 87 (89.7%)
        ("batch-bn", 0.83),  # a reader of the text alone names 77 of its 90 (85.6%)
        ("batch-bo", 0.77),  # a reader of the text alone names 49 of its 68 (72.1%)
        ("batch-bp", 0.88),  # a reader of the text alone names 68 of its 77 (88.3%)
        ("batch-bq", 0.93),  # a reader of the text alone names 71 of its 78 (91.0%)
        ("batch-br", 0.89),  # a reader of the text alone names 16 of its 19 (84.2%)
        ("batch-bs", 0.93),  # a reader of the text alone names 90 of its 103 (87.4%)
        ("batch-bt", 0.96),  # a reader of the text alone names 79 of its 83 (95.2%)
        ("batch-bu", 0.91),  # a reader of the text alone names 66 of its 71 (93.0%)
        ("batch-bv", 0.92),  # a reader of the text alone names 92 of its 98 (93.9%)
        ("batch-bw", 0.85),  # a reader of the text alone names 95 of its 110 (86.4%)
        ("batch-by", 0.92),  # a reader of the text alone names 68 of its 77 (88.3%)
        ("batch-bz", 0.86),  # a reader of the text alone names 70 of its 81 (86.4%)
        ("batch-cb", 0.93),  # a reader of the text alone names 84 of its 90 (93.3%)
        ("batch-cc", 0.85),  # a reader of the text alone names 41 of its 48 (85.4%)
        ("batch-cd", 0.94),  # a reader of the text alone names 15 of its 17 (88.2%)
        ("batch-cf", 0.93),  # a reader of the text alone names 82 of its 92 (89.1%)
        ("batch-cg", 0.88),  # a reader of the text alone names 70 of its 77 (90.9%)
        ("batch-ci", 0.95),  # a reader of the text alone names 64 of its 67 (95.5%)
        ("batch-cj", 0.94),  # a reader of the text alone names 37 of its 38 (97.4%)
        ("batch-ck", 0.92),  # a reader of the text alone names 26 of its 28 (92.9%)
        ("batch-cm", 0.87),  # a reader of the text alone names 57 of its 66 (86.4%)
        ("batch-cn", 0.87),  # a reader of the text alone names 86 of its 91 (94.5%)
        ("batch-co", 0.95),  # a reader of the text alone names 21 of its 21 (100%)
        ("batch-cp", 0.95),  # a reader of the text alone names 57 of its 62 (91.9%; 54 on the labels first measured)
        ("batch-cq", 0.91),  # a reader of the text alone names 45 of its 47 (95.7%)
        ("batch-cr", 0.83),  # a reader of the text alone names 10 of its 12 (83.3%)
    ],
)
def test_the_right_cause_comes_first(scored: Score, part: str, floor: float) -> None:
    mine = scored.only(lambda r: r.part == part)
    misses = "\n".join(f"{r.url}: want {r.cause}, got {got}" for r, got in mine.misses())
    assert mine.share >= floor, "\n".join(table([(part, mine)])) + "\n" + misses


@pytest.mark.parametrize("measured", MEASUREMENTS, ids=lambda m: f"{m.part}-{m.rules}")
def test_a_measured_batch_is_the_batch_that_was_measured(measured: Measurement) -> None:
    """A batch's first score stays meaningful only if no report was added to or dropped from it afterwards."""
    mine = [r for r in REPORTS if r.part == measured.part]
    assert len(mine) == measured.total
    causes = {r.cause for r in mine}
    assert {c: n for c, (_, n) in measured.causes.items()} == {c: sum(r.cause == c for r in mine) for c in causes}
    sources = ("github", "web")
    assert {s: n for s, (_, n) in measured.sources.items()} == {s: sum(r.source == s for r in mine) for s in sources}
    assert 0 <= measured.right <= measured.total


@pytest.mark.parametrize("measured", MEASUREMENTS, ids=lambda m: f"{m.part}-{m.rules}")
def test_no_batch_scores_below_its_first_measurement(scored: Score, measured: Measurement) -> None:
    mine = scored.only(lambda r: r.part == measured.part)
    assert mine.right >= measured.right, "\n".join(f"{r.url}: want {r.cause}, got {got}" for r, got in mine.misses())


@pytest.mark.parametrize("source", ["github", "web"])
def test_each_source_alike(scored: Score, source: str) -> None:
    mine = scored.only(lambda r: r.source == source and r.part in TUNED)
    # the web's write-ups of batches J to M keep the symptom and drop the diagnosis (their collectors' rule): 0.89
    # there; batch AB's 37 pages, mostly SEO write-ups quoting one line, bring it to 0.86 (a blind reader: 234 of 269)
    # batch AD's 317 GitHub reports (its reader 249) bring GitHub to 0.89, where a blind reader of the same texts
    # names 2,353 of 2,659 (0.885). After round AS the GitHub reports number 3,733: the rules name 3,284 (0.8797), a
    # blind reader 3,244 (0.869)
    floor = 0.87 if source == "github" else 0.86
    assert mine.total >= 10 and mine.share >= floor, mine.misses()


# (recall, precision) floors; the ABI verdict is the weakest: a missing __cxx11 (or old `Ss`) symbol with no torch
# version in the text is an ABI mismatch in some threads and a version skew in others (across the corpus the same bare
# symbol is labelled both ways, e.g. c10::Error(SourceLocation, std::string) in warp-ctc#103 and KNN_CUDA#2), and a
# symbol cut before its ABI marker cannot be read (batch F's runebook page); mamba#760 (batch F, a __cxx11 symbol under
# torch 2.6) was settled by another mamba-ssm release, while mamba#764 with the same symbol is labelled ABI. An
# extension naming libtorch_cuda.so it cannot open is a CPU torch in one thread (pyg#3904) and an import before torch
# in another (extension-cpp#127).
# A CPU build is often told only by its symptom ("it was using CPU", "I could not use Cuda", "GPU utilization 0%"),
# which a driver, a container or a code default cause as well (batch L: InvokeAI#2735, PanelCleaner#21, two write-ups;
# batch M: two more write-ups).
# Batch N added three more of the ABI-vs-skew kind: transformer_engine's `__cxx11` symbol under a pip torch settled as
# a bad install (accelerate#1475, mochi#30: read as the ABI, costing extension precision) and an old-ABI symbol
# loaded into another program's libtorch (djl#1588). Batch R added transformer_engine's own old-ABI symbol settled as
# the ABI (a gitcode write-up), the other way from accelerate#1475: 30 of 39 ABI reports read right. `explain
# --python` decides the kind from the installed torch's exports where the text cannot (tests/test_explain_installed.py).
# Batch S added two `__cxx11` symbols under torch 2.6 settled as another torch (AReaL#94, xinference#3657: a rebuild
# fixes both kinds) and a link-time `torch::jit::load(std::__cxx11::...)` settled as a missing -ltorch_cpu
# (pytorch#39718): ABI precision 30 of 40. The CPU build's symptom-only reports grew by two (a program's own "CPU
# training is not allowed", a bare "The Kernel crashed"): CPU recall 55 of 70. Batch X added five more (a trainer's
# "device: cpu, n_gpu: 0", an app's "No GPU found, use CPU instead" and "(0CPU)", whisper's "FP16 is not supported on
# CPU", a Half kernel missing on the CPU): CPU recall 78 of 102. Batch Y added four of libtorch's bindings and conda
# images (tch-rs's CPU download told as "Cuda::is_available false", a CPU build told as a failed "must have cuda
# enabled" assertion, micromamba's __cuda-less image build): CPU recall 88 of 116. Batch Z added five more (an app
# that "did not recognize my GPU", "GPU not available" and "No supported Nvidia GPU found, use CPU instead" on RTX 30
# cards, a title-only Lightning misconfiguration, conda's torchvision swapping pytorch-cpu): CPU recall 93 of 125.
# Batch Z's apex symbol `torchCheckFail(..., std::__cxx11::string)` settled as another torch (fairseq#4246) is the
# ABI-vs-skew kind once more: ABI precision 36 of 49. Batch AA (images, clusters, custom CUDA ops, the 2017-2020 era)
# added symptom-only CPU builds of images ("CUDA is not available" in an ARM image, an app "stuck at 0%") and extensions
# told by name only ("Questions regarding diff_surfel", "cannot import name '_C'" after a package update, a Dockerfile's
# hard-coded mmcv line): CPU recall 97 of 132, extension recall 208 of 245. Batch AB added six more symptom-only CPU
# builds (a nightly XPU index serving a CPU wheel, "device_count() 0", an app's "CUDA is unavailable; forcing CPU", a
# GPU image whose torch "does not support the gpu") and two write-ups blaming the driver for "no kernel image is
# available": CPU recall 104 of 145, driver recall 87 of 103. A blind reader of the same texts names fewer of both
# (96 and 86: tests/data/explain-corpus/blind-reading.toml), so these floors sit at what the texts allow. Batch AB also
# brought two "driver insufficient" texts the driver's age did not settle (onnxruntime on a machine whose Intel GPU
# the text does not name, read as the driver by the blind reader too; an error 803 write-up settled as the user-space
# library, where the corpus settles 803 two to one as the driver): driver precision 87 of 93. Batch AC (3D vision ops,
# LLM training stacks, media repos, packaging, courses) added what its blind reader could not read either (symptom-only
# CPU builds, a Jetson container on an older L4T, "Wheels for pyg-lib not available for torch-2.12.0", warpctc "can't
# install" with torch 1.1) and a few it could (xformers "has a dependency on torch 2.6.0" in words; a nixpkgs build
# without CUDA): CPU recall 108 of 155 (the reader 100), driver 87 of 106 (88), extension 235 of 287 (236), Python 163
# of 195 (167). Batch AD (quantization kernels, compilers and backends, run-time compiled research ops, GPU and domain
# libraries, multimodal and diffusion tools, speech, driving and SLAM) added packages pip finds nothing of with no
# Python or platform stated (triton, fbgemm-gpu, fairseq2n: a reader knows which are Linux-only wheels, the text does
# not say), FlashAttention's "only supports Ampere" and "is_sm8x" (the corpus settles them both ways), symptom-only CPU
# builds, and toolkit builds whose torch CUDA the text never states: CPU recall 120 of 176 (the reader 112), driver 93
# of 115 (94), extension 255 of 322 (257; precision 255 of 275, the reader 257 of 279), Python 186 of 237 (197),
# toolkit 95 of 113 (93); Python precision 186 of 196 (two of the three new wrong ones a reader names too). The
# floors below are what the rules and the reader both reach, less a report or two. Batch AE (retrieval and local LLM
# runners, AutoML and forecasting, 2025-26 generative repos) added more of the packages pip finds nothing of with no
# Python or platform stated (triton, faiss-gpu, pedalboard): Python recall 201 of 259 (the reader 218).
FLOORS = {
    # AG: pytorch_geometric#3240, a title naming no symbol (reader: extension); AI: abacus-develop#399, a PR title.
    # After AJ, a symbol whose only cxx11 part is a std::string argument, with no torch ABI the text shows, reads as
    # version skew (torch's of both ABIs lack another release's symbol under that spelling; a name tagged B5cxx11 still
    # reads as the ABI): tuned recall 44 -> 41 of 59 (FasterTransformer#708, flash-attention#975 and a TransformerEngine
    # write-up settled as the ABI), precision 44/58 -> 41/47; extension recall 284 -> 292 of 363, precision
    # 284/307 -> 292/318 (those three). AO: YOLOv3-Torch2TRT#1 (torch2trt's plugin not registered, settled as the
    # plugins built without gcc 4.8's ABI; its reader names none). CG: infinity#605 (flash-attn's cxx11abiTRUE wheel
    # for torch 2.7 beside a std::__cxx11 symbol, labelled as a build for another torch, the image's torch unsaid; as
    # Intuitor#16 of BU): precision 48 of 57
    "cxx11-abi-mismatch": (0.68, 0.84),
    # AL: an extension's source written for an older torch (THC/THC.h, torch.utils.ffi, THTensor) is read; three such
    # reports are settled as none (hand_detection#3, medicaldetectiontoolkit#67, PointGST#1) against six as the
    # extension; and flash-attn said not to install on Windows, InternVL#197, settled as none (run without it)
    # AO: generative-recommenders#18 and opacus#69 (a libcudart another build asks for, settled as fbgemm_gpu's and
    # torchcsprng's builds for another torch; their readers name the library missing) and torchrec#423 (an fbgemm op
    # with no CUDA kernel on a nightly; its reader names none)
    # AU: an extension's source needing torch >= 1.0 under torch 0.4.1, told without a message (few-shot-vid2vid#5's
    # missing ATen/cuda/CUDAContext.h, cc#16 in words) and torch-cluster's CPU build beside a cu115 torch
    # (pytorch_cluster#186, "Not complied with CUDA support"); their readers name none
    # AU and AV: torchdrug#204 (a requirements file's torch range said incompatible with torch-scatter, settled as
    # torchdrug's own fix for torch 2.0: none) and UniAD#258 (mmcv-full said to have no wheel for torch 2.0, settled as
    # pip's isolated build skipping its CUDA ops; its reader names the extension too)
    # BO: RoMa#131 (a title, "Segmentation Fault when importing local_corr") and gnr#10 (ninja failing, the compiler's
    # message left out), settled as builds for another torch; their readers name none. CityGaussian#125 ("Unsupport
    # sm120 architecture GPU (RTX 5080)??", settled as the rasterizer to rebuild after torch's upgrade) reads as the
    # card, as its reader reads it
    "extension-torch-mismatch": (0.77, 0.89),
    # AT and AW: symptom-only texts their readers leave silent too (sd-wav2lip-uhq#112's bare "Torch is not able to use
    # GPU", SadTalker#557, a JupyterHub image's is_available False) and a CPU torch on an AMD GPU where its ROCm build
    # belonged (legacy-rocm-build#2354, unsloth#8731: the catalogue's CPU build is an NVIDIA GPU's; readers name none)
    # BF: symptom-only CUDA-unavailable texts settled as a CPU build (model-angelo#78, stable-baselines3#281,
    # Fooocus#1714, IOPaint#557, DiT#109's conda environment); their readers name none
    # BW: ComfyUI-HiDiffusion#7 ("Torch not compiled with CUDA enabled" after xformers pulled the torch it was built
    # for, then xformers not matching the torch rolled back to) reads as the CPU build its first error shows; 238/251
    "cpu-only-build": (0.65, 0.94),
    # AG: mmdetection#3346 (mmcv and mmcv-full both installed, its ops' library not found) settled as none; the
    # blind reader names the library missing too
    # AH/AI: vllm#1716 and graphein#247 (a libcudart another build asks for, settled as the extension's wheel for
    # another torch) and speechbrain#1137 (torchaudio's); their readers name the library missing too
    # AP/AR: pytorch#186591 (two NCCL wheels mixed, labelled none) and nerfacc#145 (the linker's "cannot find -lcudart"
    # in a JIT build, settled as fixed in a newer nerfacc); their readers name the library too
    "cuda-runtime-missing": (0.85, 0.92),
    # BS: comfyui_HiDream-Sampler#46 (pip building auto-gptq 0.7.1's sdist in isolation on Python 3.12, settled as no
    # cp312 wheel: its PyPI wheels stop at cp311) reads as the isolated build, as its reader reads it
    "build-isolation-missing-torch": (0.85, 0.94),
    # AG/AI: titles and symptoms only (TGI#291 "Unable to find NVIDIA device driver", nerfstudio#2052, extreme-parkour#4
    # PhysX's "Failed to create a valid PhysX CUDA Context Manager", TorchSharp's "Cuda is not available"); their
    # readers name none
    # AL: dorado#116's "driver version is insufficient" settled as a Singularity run without --nv (the reader: driver).
    # AM: IsaacAutomator#40 (Omniverse's own driver check) and opencompass#558 ("pytorch version too high" with CUDA
    # unavailable); their readers name none. AO: leisaac#35 (Warp failing to find a driver entry point, no versions
    # shown, settled as Warp's bug on the R580 driver; its reader names none). AZ: docker-immich#349, CUDA's "driver
    # insufficient" with driver 550 stated, settled as a stray space in the container's variables (its reader names
    # none; reading a driver above CUDA 12's minor-version floor as fine cost five faster-whisper reports settled as
    # the driver, so it is not read). BY/BZ: fractal-tasks-core#215 (cellpose's "TORCH CUDA version not
    # installed/working", settled as torch 1.13's CUDA 11.7 build on a CUDA 10.2 driver: its reader names a CPU
    # build) and ParlAI#2080 ("Nightly GPU tests are broken", no versions shown); 145/186 (0.7796)
    "driver-too-old": (0.77, 0.9),
    # AD: torch-tensorrt's and torch's PyPI placeholders settled as none. AO to AS: mlc-llm#1281 (a manylinux_2_28 wheel
    # an old pip refused), taichi#380 (a mirror without the package), CLIP#105 (torchvision~=0.8.2), tabular-dl-
    # pretrain-objectives#1 (torch 1.11.1, which never existed), OpenNMT-py#1368 (torchtext 0.4.0 not yet on PyPI)
    # and torchmcubes#25 ("Failed to install on Windows"), all settled as none; their readers name most of them so
    "python-unsupported": (0.77, 0.93),
    # AK: deep_sort_pytorch#79 (a title, "nms Not compiled with GPU support") and ActionDetection-AFSD#16 (CUDA runtime
    # error 98 in the repo's own kernel), settled as nvcc's CUDA against torch's; their readers name none and the arch
    # AM: curobo#287, a build failure with its 147 lines left out; AN: slayerPytorch#100 (no error pasted) and GRNet#11
    # (c10::visit failing to compile, settled as nvcc 9.0 under a torch built for a newer CUDA); readers name none
    # BC: ROCm/bitsandbytes#82 and #35 (built with the system ROCm against another ROCm's torch, the ROCm analogue),
    # transformers#10853 and ChatGLM-Finetuning#2 (DeepSpeed ops failing to build, no message shown); their readers
    # name none. BH and BJ: ignite#2112 (apex failing to install on Colab, no message) and PETDet#14 (a Chinese title
    # that the build "fails, something about convex"), both settled as nvcc's CUDA against torch's; readers name none.
    # BK: Pointnet2_PyTorch#45 ("Cannot compile with CUDA=8.0?") and DAIN#19 ("fails with nvcc9.1, ... pytorch-1.0.0 to
    # 1.12"), titles whose torch's CUDA is not said; readers name none
    # BO: four titles over no message (GaussianPro#52's "RunError", VPS#24's "编译报错", Deep-Flow-Guided-Video-
    # Inpainting#103's "Error compiling objects for extension", SketchGraphs#9), settled as nvcc's CUDA against torch's;
    # their readers name none
    # CI/CJ: TRELLIS#12 ("No module named 'diff_gaussian_rasterization'" on a CUDA 12.2 pod, settled as "Cuda version
    # mismatch" against its cu118 torch) and flash-attention#231 (its error in an attached file); their readers name
    # none; 145/196 (0.7398)
    "toolkit-torch-cuda-mismatch": (0.73, 0.95),
    # BK: fsdl-text-recognizer-2022#61, a title over one line ("OSError while importing pytorch_lightning on colab"),
    # settled as Colab's torchtext left behind by its new torch; its reader names none
    "companion-mismatch": (0.84, 0.95),
}


@pytest.mark.parametrize("cause", sorted(REFS))
def test_recall_and_precision_per_cause(scored: Score, cause: str) -> None:
    scored = scored.only(lambda r: r.part in TUNED)
    recall, precision = FLOORS.get(cause, (0.85, 0.95))
    right, total = scored.recall(cause)
    assert total >= 5 and right / total >= recall, (cause, right, total, scored.misses())
    right, named = scored.precision(cause)
    assert right / named >= precision, (cause, [(r.url, r.cause) for r, got in scored.pairs if got == cause])


def test_silence_on_reports_outside_the_catalogue(scored: Score) -> None:
    scored = scored.only(lambda r: r.part in TUNED)
    right, total = scored.recall("none")
    wrong = [(r.url, got) for r, got in scored.pairs if r.cause == "none" and got != "none"]
    # (batch AD: 1,025 of 1,057 tuned on; a blind reader of the same texts stays silent on 1,017. After round AO:
    # 1,336 of 1,386, the reader 1,328; AO's mlc-llm#1281, a manylinux_2_28 wheel an old pip refused, taichi#380, a
    # mirror without the package, and leisaac#35 above, cost it. After round BR: 2,150 of 2,240, the reader 2,147;
    # the false alarms of BP to BR are ones their readers name too: Polygames#40, stemdeck#644, pytorch#13964,
    # flair#2192, tiny-cuda-nn#284)
    assert right / total >= 0.959, wrong


@pytest.mark.parametrize("report", [r for r in REPORTS if r.cause != "none"], ids=lambda r: r.url[-40:])
def test_every_finding_shows_its_evidence_and_a_fix(kb: KB, report: Report) -> None:
    for d in explain_text(report.text, kb, demangle):
        assert d.evidence and d.evidence in report.text
        assert d.fix and d.cause and 0.5 <= d.score < 1 and d.confidence in ("high", "medium", "low")


@pytest.mark.parametrize("path", SYNTHETIC, ids=[p.stem for p in SYNTHETIC])
def test_the_synthetic_logs_still_read_right(kb: KB, path: Path) -> None:
    """Older hand-written logs (tests/cases/explain/README.md), kept as regressions."""
    want = path.name.split("--")[0]
    found = explain_text(path.read_text(), kb, demangle)
    assert (found[0].ref if found else "none") == want, [d.ref for d in found]


def _first(kb: KB, text: str) -> tuple[str, str, str]:
    d = explain_text(text, kb, demangle)[0]
    return d.ref, d.cause, d.fix


def test_pinned_nvcc_too_new_for_compute_35(kb: KB) -> None:
    ref, cause, fix = _first(kb, "nvcc fatal   : Unsupported gpu architecture 'compute_35'")
    assert ref == "arch-not-compiled"
    assert cause == "nvcc is too new for compute_35: CUDA 12.0 and later dropped it"
    assert fix.startswith("remove 3.5 from TORCH_CUDA_ARCH_LIST") and "CUDA 11.8 or older" in fix


def test_pinned_nvcc_too_old_for_compute_89(kb: KB) -> None:
    text = "nvcc fatal : Unsupported gpu architecture 'compute_89'\nCuda compilation tools, release 11.5, V11.5.119"
    assert _first(kb, text)[1] == "nvcc is too old for compute_89: CUDA 11.8 is the first toolkit that compiles for it"


def test_pinned_a_cudnn_major_is_not_a_cuda_version(kb: KB) -> None:
    ref, cause, fix = _first(kb, "OSError: libcudnn.so.9: cannot open shared object file: No such file or directory")
    assert ref == "cuda-runtime-missing"
    assert cause == "libcudnn.so.9 (cuDNN 9) is not where the loader looks, or another copy shadows it"
    assert "CUDA 9" not in cause + fix and "cu9" not in fix


def test_pinned_rebuild_names_the_pip_package_and_keeps_pip_off_torch(kb: KB) -> None:
    text = (
        "ImportError: /env/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: "
        "undefined symbol: _ZN3c104cuda9SetDeviceEi\ntorch 2.3.1+cu121"
    )
    ref, cause, fix = _first(kb, text)
    assert ref == "extension-torch-mismatch"
    assert cause == (
        "flash-attn was built against another torch than the installed 2.3.1+cu121: it lacks c10::cuda::SetDevice(int)"
    )
    assert "pip install --no-build-isolation --no-deps --no-cache-dir --force-reinstall flash-attn " in fix
    assert "flash_attn_2_cuda" not in fix


def test_pinned_abi_follows_the_torch_the_text_shows(kb: KB) -> None:
    sym = "_ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"
    line = (
        f"ImportError: /env/site-packages/selective_scan_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: {sym}"
    )
    old = _first(kb, f"{line}\ntorch 2.5.1")
    assert old[0] == "cxx11-abi-mismatch" and "cxx11abiFALSE" in old[2] and "mamba-ssm" in old[2]
    assert _first(kb, f"{line}\ntorch 2.8.0+cu128")[0] == "extension-torch-mismatch"  # 2.8 is cxx11: a version skew


def test_pinned_versions_reach_the_fix(kb: KB) -> None:
    sm = _first(kb, "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch")
    assert "2.7.0+cu128" in sm[2] and "TORCH_CUDA_ARCH_LIST=12.0" in sm[2]
    pip = _first(kb, "torchvision 0.16.2+cu121 requires torch==2.1.2, but you have torch 2.2.0+cu121 which is x.")
    assert "torchvision==0.17.0" in pip[2]
    toolkit = _first(
        kb, "The detected CUDA version (12.1) mismatches the version that was used to compile\nPyTorch (11.8)."
    )
    assert "CUDA toolkit 11.8" in toolkit[2]
    cpu = _first(kb, "xFormers was built for:\n    PyTorch 2.1.2+cu121 with CUDA 1201 (you have 2.1.2+cpu)")
    assert cpu[0] == "cpu-only-build" and "torch==2.1.2+cu121" in cpu[2]
    for seen, cuda in (("torch 2.4.1+cu118", "11.8"), ("torch.version.cuda: 12.4", "12.4"), ("2.9.0+cu130", "13.0")):
        driver = _first(kb, f"{seen}\nRuntimeError: The NVIDIA driver on your system is too old (found version 11040).")
        floor = kb.toolkit(Version(cuda)).driver("linux")  # type: ignore[union-attr]
        assert f"CUDA {cuda} needs driver >= {floor}" in driver[2] and "CUDA <= 11.4" in driver[2], seen


def test_pinned_a_cuda_library_copy_without_the_symbol(kb: KB) -> None:
    text = (
        "ImportError: /venv/lib/python3.12/site-packages/torch/lib/libc10_cuda.so: undefined symbol:\n"
        "    cudaGetDriverEntryPointByVersion, version libcudart.so.12"
    )
    ref, cause, fix = _first(kb, text)
    assert ref == "cuda-runtime-missing"  # a CUDA API symbol, not a torch one: no extension to rebuild
    assert cause == (
        "the libcudart.so.12 the loader found lacks cudaGetDriverEntryPointByVersion: it is another (older) copy "
        "than the CUDA library the binary was built against, found first on the library path"
    )
    assert "LD_LIBRARY_PATH" in fix


def test_pinned_a_cuda_library_resolving_its_dependency_elsewhere(kb: KB) -> None:
    text = (
        "ImportError: /venv/lib/python3.10/site-packages/torch/lib/../../nvidia/cusparse/lib/libcusparse.so.12: "
        "undefined symbol: __nvJitLinkComplete_12_4, version libnvJitLink.so.12"
    )
    ref, cause, _ = _first(kb, text)
    assert ref == "cuda-runtime-missing"
    assert cause.startswith("libcusparse.so.12 loaded libnvJitLink.so.12 from another CUDA install")


def test_pinned_windows_dll_names_carry_the_cudnn_major(kb: KB) -> None:
    ref, cause, fix = _first(
        kb, "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!"
    )
    assert ref == "cuda-runtime-missing"
    assert cause == "cudnn_ops_infer64_8.dll (cuDNN 8) is not where the loader looks, or another copy shadows it"
    assert "install cuDNN 8 " in fix and "CUDA 8" not in cause + fix


def test_pinned_error_804_is_the_host_driver(kb: KB) -> None:
    text = "Error 804: forward compatibility was attempted on non supported HW\ntorch 2.4.0+cu124"
    ref, cause, fix = _first(kb, text)
    assert ref == "driver-too-old" and "(error 804)" in cause
    floor = kb.toolkit(Version("12.4")).driver("linux")  # type: ignore[union-attr]
    assert f"CUDA 12.4 needs driver >= {floor} on Linux" in fix


def test_pinned_a_wheel_for_another_python(kb: KB) -> None:
    text = (
        "ERROR: torchao-0.6.1+git-cp312-cp312-win_amd64.whl is not a supported wheel on this platform.\n"
        "Portable Comfyui with python 3.11"
    )
    ref, cause, _ = _first(kb, text)
    assert ref == "python-unsupported"
    assert cause == "torchao-0.6.1+git-cp312-cp312-win_amd64.whl is built for Python 3.12, and this is Python 3.11"
    same = "ERROR: x-1.0-cp311-cp311-linux_x86_64.whl is not a supported wheel on this platform.\npython 3.11"
    assert explain_text(same, kb) == []  # the tags agree: another reason (platform, ABI), not the interpreter


def test_pinned_old_gpus_name_the_newest_torch_with_their_kernels(kb: KB) -> None:
    warning = (
        "Found GPU0 {} which is of cuda capability {}.\n    PyTorch no longer supports this GPU because it is too old."
    )
    k80 = _first(kb, warning.format("Tesla K80", "3.7"))
    assert k80[0] == "arch-not-compiled" and k80[1].endswith("(sm_37)")
    assert k80[2].startswith("install a torch build compiled for sm_37: the newest with kernels for it is ")
    k40 = _first(kb, warning.format("Tesla K40m", "3.5"))
    assert k40[2].startswith("no torch in the KB ships kernels for sm_35: build torch (and extensions) from source")
    amd = (
        "Radeon RX 6600 (gfx1032) with cuda capability 10.3\nPyTorch no longer supports this GPU because it is too old."
    )
    assert explain_text(amd, kb) == []  # ROCm: no CUDA build of torch is the answer


def test_pinned_a_companion_pair_the_kb_never_released(kb: KB) -> None:
    text = (
        "torchvision=0.16\ntorch=1.13.1\n"
        '  File "/usr/local/lib/python3.10/site-packages/torchvision/ops/roi_align.py", line 4, in <module>\n'
        "    import torch._dynamo\nModuleNotFoundError: No module named 'torch._dynamo'"
    )
    ref, cause, fix = _first(kb, text)
    assert ref == "companion-mismatch"
    assert cause == "torchvision 0.16 is not the build for torch 1.13.1 (its torchvision: 0.14)"
    assert "torchvision==0.14.1" in fix
    matched = text.replace("torchvision=0.16", "torchvision=0.14")
    assert [d.ref for d in explain_text(matched, kb)] == []  # a pair the KB released: the failure is something else


def test_a_bare_title_is_a_low_confidence_finding_and_a_traceback_is_silent(kb: KB) -> None:
    (title,) = explain_text("No Module Named 'torch'", kb)
    assert title.ref == "build-isolation-missing-torch" and title.confidence == "low"
    runtime = 'Traceback (most recent call last):\n  File "train.py", line 1, in <module>\n    import torch\n'
    assert explain_text(runtime + "ModuleNotFoundError: No module named 'torch'", kb) == []


def test_pinned_dgl_has_no_library_for_this_torch(kb: KB) -> None:
    text = "ImportError: Cannot load Graphbolt C++ library\nPyTorch version: 2.3.1+cu121"
    ref, cause, fix = _first(kb, text)
    assert ref == "extension-torch-mismatch"
    assert cause.startswith("DGL ships its graphbolt library once per torch release, and the installed DGL has none")
    assert cause.endswith("for torch 2.3.1+cu121")
    assert "https://data.dgl.ai/wheels/torch-2.3/" in fix
    assert explain_text("Cannot load the tokenizer library", kb) == []


def test_pinned_a_companion_linked_against_a_torch_library_gone(kb: KB) -> None:
    gone = "OSError: libtorch_cuda_cpp.so: cannot open shared object file: No such file or directory"
    assert _first(kb, f"import torchaudio\n{gone}")[0] == "companion-mismatch"
    assert _first(kb, gone)[0] == "extension-torch-mismatch"  # no companion named: some extension


def test_pinned_a_python_c_api_symbol_is_another_python_build(kb: KB) -> None:
    text = "ImportError: /env/lib/python2.7/site-packages/torch/_C.so: undefined symbol: PyUnicodeUCS4_AsUTF8String"
    ref, cause, _ = _first(kb, text)
    assert ref == "python-unsupported"
    assert (
        cause == "_C.so was built for another Python build: this interpreter does not export PyUnicodeUCS4_AsUTF8String"
    )
    assert explain_text(text.replace("torch/_C.so", "mylib/core.so"), kb) == []  # not torch's: nothing to say


def test_pinned_a_driver_below_the_floor_of_torchs_cuda(kb: KB) -> None:
    floor = kb.toolkit(Version("12.4")).minor_compat_driver("linux")  # type: ignore[union-attr]
    assert floor is not None
    old = f"{floor.major - 1}.10"
    env = f"CUDA used to build PyTorch: 12.4\nIs CUDA available: False\nNvidia driver version: {old}"
    ref, cause, _ = _first(kb, env)
    assert ref == "driver-too-old" and cause.startswith(f"the NVIDIA driver {old} is older than CUDA 12.4")
    new = env.replace(old, f"{floor.major + 1}.10")
    assert explain_text(new, kb) == []  # a driver new enough: the versions clear it
    assert explain_text(env.replace("False", "True"), kb) == []  # CUDA works: nothing failed


def test_pinned_error_804_with_a_driver_for_that_cuda_is_not_its_age(kb: KB) -> None:
    error = "Error 804: forward compatibility was attempted on non supported HW"
    assert explain_text(f"{error}\n| Driver Version: 460.80   CUDA Version: 11.3 |", kb) == []
    assert _first(kb, f"{error}\nCUDA Version: 11.3\ntorch 2.4.0+cu124")[0] == "driver-too-old"


def test_pinned_an_older_nvcc_failing_an_extension_build(kb: KB) -> None:
    text = (
        "pip install --pre torch --index-url https://download.pytorch.org/whl/nightly/cu118\n"
        "Cuda compilation tools, release 11.5, V11.5.119\nninja: build stopped: subcommand failed."
    )
    ref, cause, _ = _first(kb, text)
    assert ref == "toolkit-torch-cuda-mismatch"
    assert cause == "nvcc is CUDA 11.5 but torch was built with CUDA 11.8, and the extension build fails"
    newer = text.replace("release 11.5, V11.5.119", "release 11.8, V11.8.89")
    assert explain_text(newer, kb) == []  # the same CUDA: the build fails for another reason


def test_pinned_a_torch_extension_cut_at_the_requirements_step(kb: KB) -> None:
    text = (
        "uv pip install --system flash-attn==2.6.1\nerror: Failed to prepare distributions\n"
        "  Caused by: Failed to fetch wheel: flash-attn==2.6.1\n"
        "  Caused by: Build backend failed to determine extra requires with `build_wheel()` with exit status: 1"
    )
    assert _first(kb, text)[0] == "build-isolation-missing-torch"
    other = text + "\nOSError: CUDA_HOME environment variable is not set."
    assert explain_text(other, kb) == []  # the exception is shown, and it is not torch missing


def test_pinned_cpu_build_in_chinese_prose(kb: KB) -> None:
    text = "pip install torch默认安装的是CPU-only版本\nprint(torch.cuda.is_available()) # 输出 False"
    assert _first(kb, text)[0] == "cpu-only-build"
    asked = "GPU版本的怎么安装\ntorch.cuda.is_available() 就是False"
    assert _first(kb, asked)[0] == "cpu-only-build"
    assert explain_text("GPU版本的怎么安装", kb) == []  # a question alone: nothing failed


def test_pinned_a_symbol_missing_from_torchs_own_library_is_not_an_extension(kb: KB) -> None:
    own = (
        "ImportError: /env/lib/python3.6/site-packages/torch/lib/libcaffe2.so: undefined symbol: _ZTIN3c1010TensorImplE"
    )
    assert explain_text(own, kb) == []  # torch's own files disagree: a broken install, not an extension
    ext = own.replace("torch/lib/libcaffe2.so", "torch_sparse/_version_cuda.so")
    assert _first(kb, ext)[0] == "extension-torch-mismatch"
    env_named_torch = ext.replace("/env/", "/torch/")  # a conda env called "torch" is not torch's package
    assert _first(kb, env_named_torch)[0] == "extension-torch-mismatch"


def test_pinned_a_symbol_torch_stopped_exporting_or_a_module_imported_before_torch(kb: KB) -> None:
    sym = "ImportError: /w/my_ext.so: undefined symbol: _ZN5torch5utils15tensor_to_numpyERKN2at6TensorEb"
    assert _first(kb, sym)[0] == "extension-torch-mismatch"
    assert explain_text(f"tensor_to_numpy symbol not exported in libtorch_python.so in pytorch 2.7\n{sym}", kb) == []
    chamfer = (
        "ImportError: /w/chamfer.cpython-37m-x86_64-linux-gnu.so: undefined symbol: "
        "_ZN2at19UndefinedTensorImpl10_singletonE"
    )
    assert explain_text(f">>> import chamfer\n{chamfer}", kb) == []  # torch's libraries not loaded yet
    assert _first(kb, f">>> import torch\n>>> import chamfer\n{chamfer}")[0] == "extension-torch-mismatch"


def test_pinned_a_companion_library_missing_a_c_symbol_or_an_unquoted_one(kb: KB) -> None:
    text = "libtorchaudio.so: undefined symbol: aoti_torch_abi_version\ntorch==2.6.0+cu124"
    ref, cause, fix = _first(kb, text)
    assert ref == "companion-mismatch" and "aoti_torch_abi_version" in cause and "torchaudio==2.6.0" in fix
    ext = "ImportError: /w/site-packages/my_ops/_C.so: undefined symbol: aoti_torch_get_current_stream"
    assert _first(kb, ext)[0] == "extension-torch-mismatch"  # torch's stable C ABI: built for a newer torch
    unquoted = "Torchaudio not importing\nFor versions 2.1.2 and 2.1.1 I get `undefined symbol` errors"
    assert _first(kb, unquoted)[0] == "companion-mismatch"
    linker = "building torchvision from source: Undefined symbols for architecture arm64"
    assert explain_text(linker, kb) == []  # a link that fails at build time, not a library that does not load


def test_pinned_an_extension_linked_against_libtorch_cpu_or_torch_upgraded_under_it(kb: KB) -> None:
    ref, _, fix = _first(kb, "OSError: libtorch_cpu.so: cannot open shared object file: No such file or directory")
    assert ref == "extension-torch-mismatch" and "libtorch_cpu.so arrived with torch 1.5" in fix
    upgraded = (
        "ImportError after upgrading to Pytorch 1.1.0\n"
        "ImportError: /env/lib/python3.7/site-packages/torch_scatter/scatter_cpu.cpython-37m-x86_64-l"
    )
    assert _first(kb, upgraded)[0] == "extension-torch-mismatch"
    assert explain_text(upgraded.replace("after upgrading to Pytorch 1.1.0", "on a new machine"), kb) == []


def test_pinned_the_build_asking_for_torch_first(kb: KB) -> None:
    text = (
        "Getting requirements to build wheel ... error\n"
        "Building cuda extension requires PyTorch(>=1.13.0) been installed, please install PyTorch first!"
    )
    assert _first(kb, text)[0] == "build-isolation-missing-torch"
    frame = (
        '   File "/tmp/pip-req-build-88l0usft/bindings/torch/setup.py", line 9, in <module>\n'
        "     import torch\n ModuleNotFoundError: No module named 'torch'"
    )
    assert _first(kb, frame)[0] == "build-isolation-missing-torch"  # setup.py in pip's build folder: the build
    program = frame.replace("/tmp/pip-req-build-88l0usft/bindings/torch/setup.py", "/home/me/train.py")
    assert explain_text(program, kb) == []  # a program importing torch: torch is missing, nothing isolated it
    said = "Collecting mamba-ssm\n  Getting requirements to build wheel ... error\n  It fails: No module named torch."
    assert _first(kb, said)[0] == "build-isolation-missing-torch"  # the module's name ends the sentence
    assert explain_text(said.replace("torch.", "torchvision."), kb) == []  # another module: not torch missing


def test_pinned_xformers_not_built_with_cuda_alone(kb: KB) -> None:
    text = "`cutlassF` is not supported because:\n    xFormers wasn't build with CUDA support"
    ref, _, fix = _first(kb, text)
    assert ref == "extension-torch-mismatch" and "xformers" in fix
    assert explain_text(f"{text}\nMac M1, torch 2.1.0", kb) == []  # no NVIDIA GPU: nothing to rebuild for
    assert _first(kb, f"{text}\nPyTorch version: 2.2.0+cpu\nwant the GPU")[0] == "cpu-only-build"


def test_pinned_glibc_too_old_in_prose(kb: KB) -> None:
    text = "Ubuntu 22.04 does not come with the glibc version that is used with flash_attn"
    ref, cause, _ = _first(kb, text)
    assert ref == "glibc-too-old"  # the claim reader's since round H
    assert cause == "the system's glibc is older than the one the binary was built on (said in words)"
    assert explain_text("error: 'double cospi(double)' noexcept mismatch on glibc 2.38+ and GCC 14+", kb) == []
    assert explain_text("Alpine does not have glibc, it uses musl", kb) == []  # no glibc at all: not its age


def test_pinned_pip_finds_no_torch_for_this_python(kb: KB) -> None:
    release = kb.release(Version("1.13.1"))
    assert release is not None and release.python_max < Version("3.12")
    text = "ERROR: No matching distribution found for torch==1.13.1+cu117\nI use python 3.12 btw"
    ref, cause, _ = _first(kb, text)
    assert ref == "python-unsupported"
    assert cause == f"torch 1.13.1 has wheels for Python {release.python_min}-{release.python_max}; this is 3.12"
    assert explain_text(text.replace("3.12", "3.10"), kb) == []  # a Python it supports: the +cu117 asked of PyPI
    placeholders = (
        "ERROR: could not find a version that satisfies the requirement torch==1.9.1+cu111(from versions 0.1.2, "
        "0.1.2post1, 0.1.2post2"
    )
    assert _first(kb, placeholders)[0] == "python-unsupported"  # only PyPI's placeholders: no torch for it


def test_pinned_an_older_local_cuda_stated_in_words(kb: KB) -> None:
    text = "RuntimeError: Error building extension 'fused_adam'\npytorch==1.13.0+cu116\ncuda版本11.0"
    ref, cause, _ = _first(kb, text)
    assert ref == "toolkit-torch-cuda-mismatch"
    assert cause == "nvcc is CUDA 11.0 but torch was built with CUDA 11.6, and the extension build fails"
    smi = text.replace("cuda版本11.0", "| Driver Version: 450.51   CUDA Version: 11.0 |")
    assert explain_text(smi, kb) == []  # nvidia-smi's CUDA is the driver's, not the toolkit's
    prose = "MMCV is detecting the system-wide CUDA version instead of the one used to compile PyTorch"
    assert _first(kb, prose)[0] == "toolkit-torch-cuda-mismatch"


def test_pinned_a_plain_windows_torch_wheel_is_the_cpu_build(kb: KB) -> None:
    text = (
        "if I select any other CUDA version, I get e.g. `+cu101` appended\n"
        "  Downloading torch-1.7.1-cp38-cp38-win_amd64.whl (184.0 MB)"
    )
    assert _first(kb, text)[0] == "cpu-only-build"
    tagged = text.replace("torch-1.7.1-cp38", "torch-1.7.1+cu101-cp38")
    assert explain_text(tagged, kb) == []


def test_pinned_a_named_gpu_torch_no_longer_supports(kb: KB) -> None:
    assert _first(kb, "Version 1.3 no longer supporting Tesla K40m?")[0] == "arch-not-compiled"
    assert _first(kb, "新版本能不能支持下 tesla k40m的显卡")[0] == "arch-not-compiled"
    assert explain_text("Version 1.3 no longer supporting Python 2.7", kb) == []


def test_pinned_a_cuda_10_torch_on_an_older_driver(kb: KB) -> None:
    floor = kb.driver_floor(Version("10.1"), "linux")
    assert floor is not None and kb.toolkit(Version("10.1")) is None  # a floor only: the KB builds nothing for 10.x
    env = "CUDA used to build PyTorch: 10.1.243\nIs CUDA available: No\nNvidia driver version: 410.104"
    ref, cause, _ = _first(kb, env)
    assert ref == "driver-too-old" and cause.endswith(f"needs: driver >= {floor}")
    assert explain_text(env.replace("410.104", "418.87.00"), kb) == []


def test_the_benchmark_section_reports_every_part_and_source(tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import explain_recall

    results = tmp_path / "RESULTS.md"
    results.write_text("# envplan benchmarks\n\n| row | kept |\n")
    explain_recall.update(results, explain_recall.section())
    explain_recall.update(results, explain_recall.section())  # replaced, not appended twice
    text = results.read_text()
    assert text.startswith("# envplan benchmarks\n\n| row | kept |\n") and text.count("explain:start") == 1
    assert "| `cxx11-abi-mismatch` |" in text and "held-out recall" in text and "fresh recall" in text
    assert "By source: dev github " in text and "36/45 (80%)" in text
    assert all(f"| {m.part} ({m.rules}) |" in text or f" {m.part} ({m.rules}) |" in text for m in MEASUREMENTS)
