"""What the person at the notebook is asked while a server's call runs: its questions
(elicitation, sampling) and signing in to it (OAuth), as panels in the calling cell or as
typed prompts while a sync call blocks the kernel.

``asker.py`` holds ``NotebookAsker``, the one name the rest of the package uses, re-exported
here; ``panels.py`` and ``sign_in.py`` are the ipywidgets panels, ``text.py`` and
``sign_in_text.py`` the typed ways (no ipywidgets). Importing the package stays cheap: the
kernel installs an asker at start, and ipywidgets load with the first panel.
"""

from workbench.widgets.asking.asker import NotebookAsker

__all__ = ["NotebookAsker"]
