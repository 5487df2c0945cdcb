"""The club archive's jobs against the schema that types them (issue #30): an export
(where its download is) and an import (what it created), each real job answer
validated against ``Job`` (the union of the per-kind jobs) closed to undeclared keys
(``tests.openapi_answers``), so ``clubdata.api_shapes`` and ``clubdata.services``
cannot drift apart."""

from __future__ import annotations

import gzip

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.openapi_answers import check_answer, closed_live_schema

pytestmark = pytest.mark.django_db


def test_an_export_and_its_import_answer_typed_jobs(
    client_for, club, director, alice, bob, django_capture_on_commit_callbacks
):
    schema = closed_live_schema()
    directed = client_for(director)
    with django_capture_on_commit_callbacks(execute=True):
        started = directed.post(f"/api/v1/clubs/{club.slug}/archive/")
    assert started.status_code == 202 and check_answer(schema, started)["params"] == {}
    export = check_answer(schema, directed.get(started["Location"]))
    assert export["kind"] == "clubdata.export" and export["status"] == "succeeded", export
    assert export["result"]["counts"]["players"] == 2 and len(export["result"]["sha256"]) == 64
    data = directed.get(export["result"]["download"]).content

    with django_capture_on_commit_callbacks(execute=True):
        started = directed.post(
            "/api/v1/club-archives/",
            {"file": SimpleUploadedFile("club.json.gz", data), "slug": "copy", "name": ""},
            format="multipart",
        )
    assert started.status_code == 202, started.content
    job = check_answer(schema, started)
    params = job["params"]
    assert params.pop("upload") > 0 and params.pop("json_bytes") == len(gzip.decompress(data))
    assert params == {"slug": "copy", "name": "", "file_bytes": len(data)}
    imported = check_answer(schema, directed.get(started["Location"]))
    assert imported["kind"] == "clubdata.import" and imported["status"] == "succeeded", imported
    assert imported["club"] is None and imported["result"]["club"] == "copy"
    assert imported["result"]["total"] == sum(imported["result"]["counts"].values())
