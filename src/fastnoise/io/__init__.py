"""Reading and writing configurations: SDFormat ``<noise>`` elements and the DVL JSON
configuration."""
