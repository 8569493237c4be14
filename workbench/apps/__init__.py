"""MCP Apps, the kernel's side of hosting them: a UI tool's ``_meta.ui`` read
(``ui_meta.py``), its App's HTML read once per version (``cache.py``), and the App document
a call's Observation carries to the JupyterLab extension (``hosting.py``). The App's own
requests arrive through the ``workbench.apps`` comm (``workbench/lab/apps_comm.py``).

Nothing is imported here, so reaching one module (the template App) loads no other.
"""
