"""The GraphQL requests gqlc sends, as the baselines send them, and the gqlc command lines themselves.

The baselines must POST what gqlc POSTs. When gqlc can print its request (`--dry-run`), the query
text is taken from it; until then these constants follow Amplify's default selection set for the
blog example's Post: every scalar and enum field, embedded types expanded, `__typename`.
"""

import json

POST_FIELDS = """      id
      title
      content
      status
      rating
      views
      score
      featured
      publishedOn
      tags
      metadata {
        wordCount
        readingTime
        source {
          url
          label
          __typename
        }
        __typename
      }
      blogId
      createdAt
      updatedAt
      __typename"""

LIST_QUERY = """query ListPosts($filter: ModelPostFilterInput, $limit: Int, $nextToken: String) {
  listPosts(filter: $filter, limit: $limit, nextToken: $nextToken) {
    items {
%s
    }
    nextToken
  }
}""" % POST_FIELDS

GET_QUERY = """query GetPost($id: ID!) {
  getPost(id: $id) {
%s
  }
}""" % "\n".join(line[2:] for line in POST_FIELDS.splitlines())

CREATE_MUTATION = """mutation CreatePost($input: CreatePostInput!) {
  createPost(input: $input) {
    id
  }
}"""


class Gqlc:
    """Command lines for the gqlc binary under test (its interface is fixed by the CLI)."""

    def __init__(self, binary, schema, api_key=None):
        self.binary = binary
        self.schema = schema
        self.api_key = api_key

    def _base(self, endpoint):
        argv = [self.binary, "--schema", self.schema, "--endpoint", endpoint]
        if self.api_key:
            argv += ["--api-key", self.api_key]
        return argv

    def get(self, endpoint, post_id="p1"):
        return self._base(endpoint) + ["get", "Post", "--id", post_id]

    def list(self, endpoint, page_size):
        return self._base(endpoint) + ["list", "Post", "--output", "ndjson", "--page-size", str(page_size)]

    def list_where(self, endpoint, model, expression, *options):
        return self._base(endpoint) + ["list", model, "--where", expression, "--output", "ndjson", *options]


def dry_run_query(argv, capture):
    """The query text gqlc would POST for argv, if it supports `--dry-run`; else None."""
    try:
        code, out, _ = capture(argv + ["--dry-run"], timeout=20)
    except Exception:  # an unknown flag, a hang, a crash: fall back to the constants
        return None
    if code != 0:
        return None
    for line in [out] + out.splitlines():
        try:
            request = json.loads(line)
        except ValueError:
            continue
        if isinstance(request, dict) and isinstance(request.get("query"), str):
            return request["query"]
    return None


def curl_command(endpoint, body, api_key=None):
    """One POST with curl, the baseline for one `gqlc get`."""
    argv = ["curl", "-sS", "-H", "Content-Type: application/json"]
    if api_key:
        argv += ["-H", "x-api-key: " + api_key]
    return argv + ["--data-binary", body, endpoint]


# Follows nextToken like gqlc: one curl per page, one jq for the items (the output lines), one jq for
# the token. jq prints the token as JSON (a quoted string or null), so it drops straight into the
# next body. Every item line goes to stdout, like `gqlc list --output ndjson`.
CURL_JQ_LOOP = r"""
set -euo pipefail
page=$(mktemp)
trap 'rm -f "$page"' EXIT
auth=()
if [ -n "${API_KEY:-}" ]; then auth=(-H "x-api-key: $API_KEY"); fi
token=null
while :; do
  printf '{"query":%s,"variables":{"limit":%s,"nextToken":%s}}' "$QUERY_JSON" "$LIMIT" "$token" |
    curl -sS --fail -H 'Content-Type: application/json' "${auth[@]}" --data-binary @- "$URL" > "$page"
  jq -c '.data.listPosts.items[]' "$page"
  token=$(jq '.data.listPosts.nextToken' "$page")
  if [ "$token" = null ]; then break; fi
done
"""


def curl_jq_loop(endpoint, query, page_size, api_key=None):
    """(argv, extra environment) for the shell loop that pages like `gqlc list`."""
    env = {"URL": endpoint, "QUERY_JSON": json.dumps(query), "LIMIT": str(page_size), "API_KEY": api_key or ""}
    return ["bash", "-c", CURL_JQ_LOOP], env
