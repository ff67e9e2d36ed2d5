"""Pure renderers: data in, text or JSON-able dicts out. Nothing here touches the disk or the terminal."""
