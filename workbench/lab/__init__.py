"""The kernel's side of the JupyterLab / Notebook 7 MCP sidebar: a comm target that sends
the kernel's servers, tools and served surface to the panel and answers its searches.

The panel never speaks MCP: every answer comes from the kernel's Workbench through this comm.
Nothing here is imported by ``%load_ext workbench`` but ``sidebar.install``, which registers
the target; the documents (``state.py``) and templates (``template.py``) load on first use.
"""

TARGET = "workbench.sidebar"
"""The comm target the front end opens (labextension/src/sidebar)."""
