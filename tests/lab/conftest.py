"""The real-kernel fixtures of ``tests/kernel`` (``kernel_launcher``), for the sidebar's
comm tests, which drive a kernel as the JupyterLab panel does."""

from tests.kernel.conftest import kernel_launcher

__all__ = ["kernel_launcher"]
