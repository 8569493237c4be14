"""Code the kernel tests run in their kernels, written once."""

WAIT_HERE = """cancelled = threading.Event()

@tool
async def wait_here(seconds: float = 30) -> str:
    "Sleep on the local notebook server; note a cancellation."
    try:
        await asyncio.sleep(seconds)
    except asyncio.CancelledError:
        cancelled.set()
        raise
    return "finished"

wb.add_tools(wait_here)
"""
"""Kernel code: a 30 s notebook tool that sets ``cancelled`` when its call is cancelled (needs
``asyncio``, ``threading``, ``tool`` and a Workbench ``wb`` in the kernel)."""
