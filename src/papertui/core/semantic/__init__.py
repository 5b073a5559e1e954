"""Paper vectors, related papers and the "for you" ranking (numpy; scipy only to build)."""
