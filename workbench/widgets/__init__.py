"""The widget room: views of a Workbench for people who would rather click than type.

``form`` is a tool's call form: JSON Schema to fields and arguments (pure, no ipywidgets)
and ``FormView``, which draws them; ``tool_list`` (anywidget), ``call_panel`` and
``history_view`` are the browser's parts, and ``browser`` puts them together.
"""
