"""A demo fastnoise model plugin: :class:`~fastnoise_plugin_demo.model.DemoRangeNoise`,
registered through the ``fastnoise.models`` entry-point group."""
