"""The six-player blueprint: presets, the compiled poker tree, deals, stores and summaries."""
