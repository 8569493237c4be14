"""The widget room: call forms from JSON Schema (``form``), pure and free of ipywidgets."""
