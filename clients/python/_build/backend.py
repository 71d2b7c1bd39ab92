"""A build backend of the package's own (PEP 517), with the standard library only.

pip builds a source tree in an isolated environment into which it installs the backend's requirements from an
index; setuptools as the backend made `pip install ./clients/python` need a network. This backend requires nothing,
so the plain command installs offline. It builds a pure-Python wheel of `banking_sandbox` (and an sdist, and an
editable wheel), its metadata read from pyproject.toml, which stays the one place the version is written.
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "banking_sandbox"
NAME = "banking-sandbox"


def _project():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as handle:
        text = handle.read()

    def field(key):
        found = re.search(r'^%s = "([^"]*)"' % key, text, re.M)
        if not found:
            raise ValueError("pyproject.toml has no %s" % key)
        return found.group(1)

    classifiers = re.findall(r'^\s+"([^"]+ :: [^"]+)",?$', text, re.M)
    entry_points = re.findall(r"^\[project\.entry-points\.([\w.-]+)\]\n((?:[^\[\n][^\n]*\n?)*)", text, re.M)
    return {
        "version": field("version"),
        "summary": field("description"),
        "requires_python": field("requires-python"),
        "classifiers": classifiers,
        "entry_points": entry_points,
    }


def _metadata(project):
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as handle:
        readme = handle.read()
    lines = [
        "Metadata-Version: 2.1",
        "Name: %s" % NAME,
        "Version: %s" % project["version"],
        "Summary: %s" % project["summary"],
        "License: MIT",
        "Requires-Python: %s" % project["requires_python"],
    ]
    lines += ["Classifier: %s" % c for c in project["classifiers"]]
    lines += ["Description-Content-Type: text/markdown", "", readme]
    return "\n".join(lines)


def _entry_points(project):
    out = []
    for group, body in project["entry_points"]:
        out.append("[%s]" % group)
        for line in body.strip().splitlines():
            name, _, target = line.partition("=")
            out.append("%s = %s" % (name.strip(), target.strip().strip('"')))
        out.append("")
    return "\n".join(out)


def _dist_info(project):
    return "%s-%s.dist-info" % (PACKAGE, project["version"])


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (path, digest, len(data))


def _write_wheel(wheel_directory, files):
    project = _project()
    info = _dist_info(project)
    files = list(files) + [
        (info + "/METADATA", _metadata(project).encode()),
        (info + "/WHEEL", b"Wheel-Version: 1.0\nGenerator: banking-sandbox-backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
        (info + "/entry_points.txt", _entry_points(project).encode()),
    ]
    record = [_record_line(path, data) for path, data in files] + [info + "/RECORD,,"]
    name = "%s-%s-py3-none-any.whl" % (PACKAGE, project["version"])
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files:
            wheel.writestr(path, data)
        wheel.writestr(info + "/RECORD", "\n".join(record) + "\n")
    return name


def _package_files():
    base = os.path.join(ROOT, PACKAGE)
    for entry in sorted(os.listdir(base)):
        if entry.endswith(".py") or entry == "py.typed":
            with open(os.path.join(base, entry), "rb") as handle:
                yield "%s/%s" % (PACKAGE, entry), handle.read()


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, _package_files())


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    # The source folder on the path: the package is imported from where it is edited.
    return _write_wheel(wheel_directory, [("__editable__.%s.pth" % PACKAGE, (ROOT + "\n").encode())])


def build_sdist(sdist_directory, config_settings=None):
    project = _project()
    base = "%s-%s" % (PACKAGE, project["version"])
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as sdist:
        for entry in ["pyproject.toml", "README.md", "_build/backend.py", PACKAGE]:
            sdist.add(os.path.join(ROOT, entry), arcname="%s/%s" % (base, entry),
                      filter=lambda t: None if "__pycache__" in t.name else t)
        data = _metadata(project).encode()
        member = tarfile.TarInfo("%s/PKG-INFO" % base)
        member.size = len(data)
        sdist.addfile(member, io.BytesIO(data))
    return name
