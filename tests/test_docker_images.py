"""`export docker`'s base image: the official pytorch/pytorch tag the KB knows best for a step's torch and CUDA."""

from __future__ import annotations

from dataclasses import replace

import pytest
from packaging.version import Version

from envplan.export.docker import base_image
from envplan.kb.variants import parse_variant


@pytest.mark.parametrize(
    "case",
    [
        # the example: in wide public use, unknown before
        ("2.1.2", "cu118", False, "pytorch/pytorch:2.1.2-cuda11.8-cudnn8-runtime", "seen in public use"),
        ("2.2.1", "cu121", True, "pytorch/pytorch:2.2.1-cuda12.1-cudnn8-devel", "seen in public use"),
        ("2.4.0", "cu121", False, "pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime", "seen in public use"),
        ("2.7.0", "cu126", False, "pytorch/pytorch:2.7.0-cuda12.6-cudnn9-runtime", "seen in documentation only"),
        ("2.0.0", "cu118", False, "pytorch/pytorch:2.0.0-cuda11.8-cudnn8-runtime", "not checked on Docker Hub"),
        ("2.13.0", "cu132", True, "pytorch/pytorch:2.13.0-cuda13.2-cudnn9-devel", "seen in public use"),
    ],
)
def test_the_best_attested_official_tag(kb, case: tuple[str, str, bool, str, str]) -> None:
    torch, variant, devel, tag, trust = case
    image, why = base_image(kb, torch, variant, "3.11", devel=devel)
    assert image == tag
    assert trust in why


def test_the_ghcr_mirror_counts_when_docker_hub_has_no_runtime_tag(kb) -> None:
    """2.3.0 + CUDA 11.8: the KB knows the devel tag on Docker Hub and the runtime one only on ghcr.io."""
    image, _ = base_image(kb, "2.3.0", "cu118", "3.11", devel=False)
    assert image == "ghcr.io/pytorch/pytorch:2.3.0-cuda11.8-cudnn8-runtime"


def test_a_devel_image_stands_in_when_no_runtime_tag_is_known(kb) -> None:
    devel_only = tuple(i for i in kb.docker if "2.2.1-cuda12.1" in i.tag and i.tag.endswith("-devel"))
    image, why = base_image(replace(kb, docker=devel_only), "2.2.1", "cu121", "3.11", devel=False)
    assert image == "pytorch/pytorch:2.2.1-cuda12.1-cudnn8-devel" and "no runtime one is known" in why


def test_a_doubtful_tag_is_never_used(kb) -> None:
    """The reference doubts pytorch/pytorch:2.8.0-cuda12.4-cudnn9-devel exists (2.8 has no CUDA 12.4 build)."""
    assert any(i.doubtful for i in kb.docker_images(Version("2.8.0")))
    image, why = base_image(kb, "2.8.0", "cu124", "3.11", devel=True)
    assert image == "python:3.11-slim" and "no official image" in why


def test_every_release_from_2_0_has_an_official_cuda_image(kb) -> None:
    """For each release from 2.0 to 2.14.0 the KB knows at least one official CUDA runtime image."""
    missing = []
    for release in kb.releases:
        if not Version("2.0") <= release.torch <= Version("2.14.0"):
            continue
        cuda = [v for v in release.variants if (p := parse_variant(v)) is not None and p.kind == "cuda"]
        images = [base_image(kb, str(release.torch), v, "3.11", devel=False)[0] for v in cuda]
        if all(i.startswith("python:") for i in images):
            missing.append(str(release.torch))
    assert missing == []
