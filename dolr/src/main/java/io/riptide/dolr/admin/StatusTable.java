package io.riptide.dolr.admin;

import java.util.List;

/**
 * One table of a status page: a title, column headings and rows of already-formatted cells.
 *
 * @param note shown under the title when not empty (e.g. "showing 10 of 250")
 */
public record StatusTable(String title, String note, List<String> columns, List<List<String>> rows) {
    public StatusTable {
        columns = List.copyOf(columns);
        rows = rows.stream().map(List::copyOf).toList();
    }
}
