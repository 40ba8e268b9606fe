"""Tutorial scripts and their texts (see app/tutorial.js)."""
