"""Type stubs for fastnoise.models.lidar.call: internal, nothing public."""
