"""Rule: the tables ``docs/api.md`` shows of the code (the action-id layout, the bot policies) are what the code
writes; ``python -m tests.readme_tables`` rewrites them."""

from __future__ import annotations

import pytest

from engine_service.bots import registered_policy
from tests.checklists.lowest_id import LOWEST_ID
from tests.readme_tables import API_DOC, TABLES, Table, policy_table


@pytest.mark.parametrize("table", TABLES, ids=[table.name for table in TABLES])
def test_the_documents_copy_of_each_written_table_is_what_the_code_writes(table: Table) -> None:
    assert table.copy_in(API_DOC.read_text(encoding="utf-8")) == table.write(), "run python -m tests.readme_tables"


def test_a_policy_registered_and_left_out_of_the_document_is_caught() -> None:
    text = API_DOC.read_text(encoding="utf-8")
    table = next(table for table in TABLES if table.write is policy_table)
    with registered_policy(LOWEST_ID):
        assert table.copy_in(text) != table.write()
        assert "| `lowest_id` | no | the legal action with the lowest action id |" in table.rewritten(text)
