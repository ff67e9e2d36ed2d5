"""The input: a profile's model, its reader (every error names the file and key), GPU names."""
