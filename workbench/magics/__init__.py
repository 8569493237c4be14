"""The IPython magics: ``%mcp SUBCOMMAND`` (one module per subcommand) and ``%%tool``.

They parse, call a Workbench method and display the result; nothing else. Importing this
package loads IPython's magic machinery and argparse only: the Workbench, pydantic, rich
and fastmcp load on first use.
"""

from workbench.magics.workbench_magics import WorkbenchMagics

__all__ = ["WorkbenchMagics"]
