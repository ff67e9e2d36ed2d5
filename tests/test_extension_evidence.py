"""The extension KB against evidence from the world (tests/data/extension-evidence/): the GitHub release asset
names people actually download (and those proven missing), and every sdist's contents on PyPI."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.version import Version

from envplan.core.extmatch import Target, _wheels
from envplan.kb import KB
from envplan.profile.model import Machine
from helpers import ROOT

EVIDENCE = ROOT / "tests" / "data" / "extension-evidence"
NAME = re.compile(
    r"^(?P<pkg>flash_attn|causal_conv1d|mamba_ssm)-(?P<ver>[^+]+)\+cu(?P<cu>\d+)torch(?P<torch>\d+\.\d+)"
    r"cxx11abi(?P<abi>TRUE|FALSE)-cp(?P<py>\d+)-cp\d+-linux_x86_64\.whl$"
)
PACKAGES = {"flash_attn": "flash-attn", "causal_conv1d": "causal-conv1d", "mamba_ssm": "mamba-ssm"}
NOT_PUBLISHED = ("REQUESTED-NOT-PUBLISHED", "GUESSED", "DOUBTFUL", "UNCONFIRMED")


@dataclass(frozen=True)
class Asset:
    tag: Version
    name: str
    seen: str

    @property
    def published(self) -> bool:
        return not self.seen.startswith(NOT_PUBLISHED)


def _assets() -> list[Asset]:
    out = []
    for line in (EVIDENCE / "assets.tsv").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        _, tag, name, seen = line.split("\t")
        if NAME.match(name) and "fork" not in tag:
            out.append(Asset(Version(tag.lstrip("v")), name, seen))
    return out


ASSETS = _assets()


def _offered(kb: KB, asset: Asset) -> tuple[bool, bool]:
    """(the KB offers exactly this file for some matching pip torch, some pip torch of that minor has its ABI)"""
    m = NAME.match(asset.name)
    assert m is not None
    facts = kb.extension(PACKAGES[m["pkg"]])
    assert facts is not None
    cu = m["cu"]
    major = int(cu[:-1]) if len(cu) == 3 else int(cu)
    python = Version(f"3.{m['py'][1:]}")
    abi_exists, urls = False, set()
    for release in kb.minor_releases(m["torch"]):
        for variant in (v for v in release.variants if v.startswith(f"cu{major}")):
            if release.cxx11_abi_for(variant) != (m["abi"] == "TRUE"):
                continue
            abi_exists = True
            target = Target(release=release, variant=variant, python=python, machine=Machine(glibc=Version("2.35")))
            urls |= {w.url for w in _wheels(facts, target) if w.version == asset.tag}
    return any(u.endswith("/" + asset.name) for u in urls), abi_exists


def _nightly(kb: KB, asset: Asset) -> bool:
    m = NAME.match(asset.name)
    assert m is not None
    facts = kb.extension(PACKAGES[m["pkg"]])
    assert facts is not None
    return any(r.has_version(asset.tag) and Version(m["torch"]) in r.nightly for r in facts.releases)


def test_the_evidence_is_there() -> None:
    assert len(ASSETS) > 100 and sum(not a.published for a in ASSETS) >= 5


@pytest.mark.parametrize("asset", [a for a in ASSETS if a.published], ids=lambda a: a.name)
def test_every_published_wheel_seen_is_one_the_kb_offers(kb: KB, asset: Asset) -> None:
    offered, abi_exists = _offered(kb, asset)
    if not abi_exists:
        pytest.skip("no pip torch of that minor has this C++ ABI (a wheel for NGC/conda torch)")
    if _nightly(kb, asset):
        assert not offered, "wheels built against a torch nightly are not offered for the released minor"
        return
    assert offered, f"the KB misses {asset.name} ({asset.seen})"


@pytest.mark.parametrize("asset", [a for a in ASSETS if not a.published], ids=lambda a: a.name)
def test_no_wheel_proven_missing_is_offered(kb: KB, asset: Asset) -> None:
    assert not _offered(kb, asset)[0], f"{asset.name} does not exist ({asset.seen})"


def _sdists() -> list[tuple[str, Version, bool]]:
    rows = []
    for line in Path(EVIDENCE / "sdists.tsv").read_text().splitlines():
        if line.startswith("#"):
            continue
        package, version, _, _, buildable, _, _ = line.split("\t")
        rows.append((package, Version(version), buildable == "yes"))
    return rows


@pytest.mark.parametrize(("package", "version", "buildable"), _sdists(), ids=str)
def test_the_kb_knows_which_sdists_can_build(kb: KB, package: str, version: Version, buildable: bool) -> None:
    facts = kb.extension(package)
    assert facts is not None and facts.sdist_builds(version) is buildable
