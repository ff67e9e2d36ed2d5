"""envplan: exact, reproducible and safely upgradable PyTorch environments."""

__version__ = "0.1.0"
__all__ = ["__version__"]
