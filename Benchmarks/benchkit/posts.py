"""Canned blog posts: the items the canned server pages through and the JSON benchmark's fallback file."""

CONTENT_TEMPLATE = 'Post {n} says \\"hi\\",\\non two lines, in caf\u00e9 UTF-8.'
# Stands for the page number in a rendered page; replaced by digits when the page is served.
PAGE_MARK = "~PAGE~"


def render_item(index: int, page: str = PAGE_MARK) -> str:
    """The post at `index` within `page`, as compact JSON (~520 bytes), shaped like the blog
    example's default selection set. Only the id, title, content and URL mention the page."""
    n = index
    ident = "%s-%05d" % (page, index)
    return (
        '{"id":"post-%s","title":"Post %s","content":"%s",'
        '"status":"%s","rating":%d,"views":%d,"score":%d.%02d,"featured":%s,'
        '"publishedOn":"2024-%02d-%02d","tags":["bench","graphql","tag-%d"],'
        '"metadata":{"wordCount":%d,"readingTime":%d.5,"source":{"url":"https://x.io/%s",'
        '"label":"x","__typename":"Source"},"__typename":"PostMetadata"},'
        '"blogId":"blog-%02d","createdAt":"2024-%02d-%02dT%02d:%02d:%02d.000Z",'
        '"updatedAt":"2024-%02d-%02dT%02d:%02d:%02d.000Z","__typename":"Post"}'
    ) % (
        ident, ident, CONTENT_TEMPLATE.format(n=ident),
        ("DRAFT", "PUBLISHED", "ARCHIVED")[n % 3], n % 5 + 1, n * 7 % 100000, n % 5, n % 100 or 1,
        "true" if n % 4 == 0 else "false",
        n % 12 + 1, n % 28 + 1, n % 50,
        n * 13 % 5000 + 1, n % 20 + 1, ident,
        n % 40,
        n % 12 + 1, n % 28 + 1, n % 24, n % 60, n % 59,
        n % 12 + 1, n % 28 + 1, (n + 1) % 24, n % 60, n % 59,
    )


def write_list_response(path, megabytes):
    """Writes a compact `listPosts` response of about `megabytes` MB (10^6 bytes), streaming."""
    target = megabytes * 1_000_000
    with open(path, "w", encoding="utf-8") as out:
        out.write('{"data":{"listPosts":{"items":[')
        written, page = 0, 0
        while written < target:
            chunk = ",".join(render_item(i, "%05d" % page) for i in range(1000))
            out.write(("," if page else "") + chunk)
            written += len(chunk.encode())
            page += 1
        out.write('],"nextToken":null,"__typename":"ModelPostConnection"}}}')
