"""The widget room: views of a Workbench for people who would rather click than type.

``form`` turns JSON Schemas into form descriptions and back (pure, no ipywidgets);
``form_view`` draws them with ipywidgets; ``tool_list`` (anywidget), ``call_panel`` and
``history_view`` are the browser's parts, and ``browser`` puts them together.
"""
