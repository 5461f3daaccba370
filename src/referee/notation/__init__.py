"""Value types that parse and print their own notation."""
