"""Java behaviour kpart must reproduce bit for bit (private; tested against JVM-produced values)."""
