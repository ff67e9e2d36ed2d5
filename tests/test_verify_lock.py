"""The checks on a resolver's result: the resolvers accept what envplan must refuse."""

from __future__ import annotations

from dataclasses import replace

from envplan.resolve.lockcheck import lock_problems
from envplan.resolve.model import Lock, LockedPackage, LockRequest

PYTORCH = "https://download.pytorch.org/whl/cu118"
PYPI = "https://pypi.org/simple"
HASH = ("sha256:" + "0" * 64,)


def lock_of(*packages: LockedPackage) -> Lock:
    request = LockRequest(
        name="01-torch",
        python="3.10",
        platform="x86_64-manylinux_2_28",
        family=("torch==2.1.2+cu118", "torchvision==0.16.2+cu118"),
        requirements=("numpy",),
        pypi_index=PYPI,
        pytorch_index=PYTORCH,
        label="cu118",
    )
    return Lock(request=request, backend="test", packages=packages, pytorch_names=frozenset({"torch", "torchvision"}))


def pkg(name: str, version: str, index: str, hashes: tuple[str, ...] = HASH) -> LockedPackage:
    return LockedPackage(name=name, version=version, hashes=hashes, index=index)


def test_a_clean_lock_has_no_problems() -> None:
    assert (
        lock_problems(
            lock_of(
                pkg("torch", "2.1.2+cu118", PYTORCH),
                pkg("torchvision", "0.16.2+cu118", PYTORCH),
                pkg("numpy", "1.26.4", PYPI),
            )
        )
        == []
    )


def test_mixed_variants_are_refused() -> None:
    problems = lock_problems(lock_of(pkg("torch", "2.1.2+cu118", PYTORCH), pkg("torchvision", "0.16.2+cu121", PYTORCH)))
    assert any(p.startswith("mixed variants in the torch family") for p in problems)
    assert "torchvision should be 0.16.2+cu118, the resolver chose 0.16.2+cu121" in problems


def test_a_package_from_the_wrong_index_is_refused() -> None:
    problems = lock_problems(
        lock_of(
            pkg("torch", "2.1.2+cu118", PYPI),
            pkg("torchvision", "0.16.2+cu118", PYTORCH),
            pkg("numpy", "1.26.0", PYTORCH),
        )
    )
    assert f"torch in requirements.txt comes from {PYPI}, not from {PYTORCH}" in problems
    assert f"numpy in requirements.txt comes from {PYTORCH}, not from {PYPI}" in problems


def test_a_package_the_family_brought_from_the_pytorch_index_must_come_from_there() -> None:
    """Provenance by index, not by name: whatever the pins resolved to from the PyTorch index (here a triton
    renamed torchtriton) is held to that index, under any name."""
    lock = lock_of(
        pkg("torch", "2.1.2+cu118", PYTORCH),
        pkg("torchvision", "0.16.2+cu118", PYTORCH),
        pkg("torchtriton", "9.9.9", PYPI),
    )
    assert lock_problems(lock) == []  # not from the PyTorch index's closure: PyPI is its one index
    held = replace(lock, pytorch_names=lock.pytorch_names | {"torchtriton"})
    assert lock_problems(held) == [f"torchtriton in requirements.txt comes from {PYPI}, not from {PYTORCH}"]


def test_an_entry_without_its_index_is_refused() -> None:
    problems = lock_problems(lock_of(pkg("torch", "2.1.2+cu118", ""), pkg("torchvision", "0.16.2+cu118", PYTORCH)))
    assert problems == [f"torch in requirements.txt does not say which index it comes from (it must be {PYTORCH})"]


def test_a_missing_hash_is_refused() -> None:
    problems = lock_problems(
        lock_of(
            pkg("torch", "2.1.2+cu118", PYTORCH),
            pkg("torchvision", "0.16.2+cu118", PYTORCH),
            pkg("numpy", "1.26.4", PYPI, ()),
        )
    )
    assert problems == ["numpy==1.26.4 has no hash"]
