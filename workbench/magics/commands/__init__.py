"""The ``%mcp`` subcommands, one module each: ``%mcp NAME`` runs ``commands/NAME.py``.

Each module holds one function ``(state, line)`` decorated with ``@magic_arguments``; it
parses its line, calls one Workbench method and displays what came back.
"""
