"""Type stubs for fastnoise.models.lidar_call: internal, nothing public."""
