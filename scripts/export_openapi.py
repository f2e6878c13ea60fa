"""Write the service's OpenAPI document to openapi/openapi.json.

    python scripts/export_openapi.py          # write it
    python scripts/export_openapi.py --check  # exit 1 if the file is stale

tests/api/test_openapi.py keeps the file equal to the live schema.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "openapi" / "openapi.json"


def render() -> str:
    """The live schema as the file holds it: sorted keys, indent 2, final newline."""
    sys.path.insert(0, str(ROOT))
    from app.main import create_app
    from app.settings import Settings

    # Defaults, not the environment: the document must not depend on where it is built.
    schema = create_app(Settings.model_construct()).openapi()
    return json.dumps(schema, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the file differs from the live schema")
    args = parser.parse_args()
    text = render()
    if args.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT.relative_to(ROOT)} is stale; run python scripts/export_openapi.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
