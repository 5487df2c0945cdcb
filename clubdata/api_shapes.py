"""The shapes of the club archive's jobs' ``params`` and ``result``, for the schema.

The declarations of ``clubdata.export`` and ``clubdata.import``
(``clubdata.job_catalog``, registered by ``clubdata/wiring.py``) name them, so a
generated client reads where the export's download is, or what an import created, as
typed objects. They describe what
``clubdata.services`` puts in ``params`` (the uploaded file stays hidden) and what its
jobs return; ``tests/clubdata/test_job_shapes.py`` holds real job answers to them.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class ClubExportResultSerializer(serializers.Serializer[Any]):
    """The archive written, and where to download it."""

    counts = serializers.DictField(
        child=serializers.IntegerField(), help_text="Rows per section of the archive."
    )
    bytes = serializers.IntegerField(help_text="The archive's size, uncompressed.")
    sha256 = serializers.CharField(help_text="The uncompressed archive's SHA-256, in hex.")
    download = serializers.CharField(help_text="The path of the file (GET, .json.gz).")


class ClubImportParamsSerializer(serializers.Serializer[Any]):
    """The slug and name asked for (empty: the file's), the file's size as uploaded
    and inflated, and the number of the kept upload (the file itself is not shown)."""

    slug = serializers.CharField(allow_blank=True)
    name = serializers.CharField(allow_blank=True)
    file_bytes = serializers.IntegerField()
    json_bytes = serializers.IntegerField(help_text="The file's JSON, inflated.")
    upload = serializers.IntegerField(help_text="The kept upload the job reads.")


class ClubImportResultSerializer(serializers.Serializer[Any]):
    """The club created, its rows per section, and the slugs renamed on the way."""

    club = serializers.CharField(help_text="The new club's slug.")
    counts = serializers.DictField(child=serializers.IntegerField())
    renamed = serializers.DictField(
        child=serializers.IntegerField(), help_text="Slugs taken on this site, renamed, by section."
    )
    total = serializers.IntegerField()
    url = serializers.CharField(help_text="The new club's page.")
