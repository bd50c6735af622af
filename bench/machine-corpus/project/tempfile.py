# Writes its result to a named temporary file and says where.
import tempfile

with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as handle:
    handle.write(b"{}")
    print(f"results in {handle.name}")
