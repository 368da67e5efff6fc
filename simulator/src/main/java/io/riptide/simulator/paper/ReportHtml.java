package io.riptide.simulator.paper;

/** What every report page shares: the page head with its style, and escaping of text. */
public final class ReportHtml {
    private ReportHtml() {
    }

    /** The page from {@code <!doctype>} up to and including {@code <body>}, titled {@code title} (escaped here). */
    public static String head(String title) {
        return "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + esc(title) + "</title>\n"
                + "<style>body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;color:#222}"
                + "section{border-top:1px solid #ccc;padding:1em 0}img{max-width:100%;border:1px solid #eee}"
                + "table{border-collapse:collapse}td,th{padding:.2em .8em;text-align:left;vertical-align:top}"
                + ".met{color:#176f2c;font-weight:bold}.missed{color:#b3261e;font-weight:bold}"
                + "code{background:#f4f4f4;padding:0 .2em}</style></head><body>\n";
    }

    /** {@code s} safe as HTML text and attribute values. */
    public static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
