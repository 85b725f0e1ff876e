"""Relationship fields for every association form in the examples, the project fixtures and the shared fixtures."""

from __future__ import annotations

import pytest

from local_app import FIXTURES, LocalApp, make_app
from harness import SHARED_FIXTURES


def test_blog_has_many_and_belongs_to(blog_app):
    data = blog_app.data("""{ getBlog(id: "b2") {
      posts(sortDirection: DESC) { items { id blog { name } comments { items { author } } } nextToken } } }""")
    posts = data["getBlog"]["posts"]
    assert posts["nextToken"] is None
    # Post.byBlog sorts by title: "Winter gear checklist" > "Around the Matterhorn in five days".
    assert [p["id"] for p in posts["items"]] == ["p5", "p4"]
    assert {p["blog"]["name"] for p in posts["items"]} == {"Trail Journal"}
    assert [c["author"] for c in posts["items"][1]["comments"]["items"]] == ["fatima", "gus", "ben", "hana"]
    filtered = blog_app.data('{ getBlog(id: "b1") { posts(title: {beginsWith: "C"}) { items { id } } } }')
    assert filtered["getBlog"]["posts"]["items"] == [{"id": "p2"}]
    orphan = blog_app.data('mutation { createComment(input: {content: "lost"}) { post { id } } }')
    assert orphan == {"createComment": {"post": None}}


def test_many_to_many_through_the_join_model(tags_app):
    data = tags_app.data('{ getArticle(id: "article-graphql") { tags { items { tag { label } } } } }')
    assert [i["tag"]["label"] for i in data["getArticle"]["tags"]["items"]] == ["graphql", "testing"]
    data = tags_app.data('{ getTag(id: "tag-testing") { articles(limit: 2) { items { article { title } } nextToken } } }')
    articles = data["getTag"]["articles"]
    assert len(articles["items"]) == 2 and articles["nextToken"] is not None


def test_has_many_uses_the_child_index_sort_key(inventory_app):
    data = inventory_app.data('{ getWarehouse(warehouseId: "wh-lyon") { items { items { sku quantity warehouse { city } } } } }')
    items = data["getWarehouse"]["items"]["items"]
    assert [i["quantity"] for i in items] == [0, 22, 70]  # index byWarehouse sorts by quantity
    assert {i["warehouse"]["city"] for i in items} == {"Lyon"}


def test_project_fixture_gen1_implicit_keys_has_one_on_the_parent_and_a_model_typed_associated_with():
    app = make_app(FIXTURES / "gen1-conventions.mis.json")
    app.data('mutation { createShelf(input: {id: "s1", label: "A"}) { id } }')
    app.data('mutation { createBook(input: {id: "b1", title: "Dune", shelfBooksId: "s1"}) { id } }')
    assert app.data('{ getShelf(id: "s1") { books { items { title shelf { label } } } } }')["getShelf"] == {
        "books": {"items": [{"title": "Dune", "shelf": {"label": "A"}}]}}
    app.data('mutation { createProfile(input: {profileId: "p1", handle: "ann"}) { profileId } }')
    app.data('mutation { createAuthor(input: {authorId: "a1", name: "Ann", authorProfileProfileId: "p1", '
             'authorProfileHandle: "ann"}) { authorId } }')
    assert app.data('{ getAuthor(authorId: "a1", name: "Ann") { profile { handle } } }')["getAuthor"] == {
        "profile": {"handle": "ann"}}
    app.data('mutation { createAlbum(input: {albumId: "al", title: "Blue"}) { albumId } }')
    for track_id, title in (("t1", "Blue"), ("t2", "Red")):
        app.data(f'mutation {{ createTrack(input: {{id: "{track_id}", name: "x", albumId: "al", '
                 f'albumTitle: "{title}"}}) {{ id }} }}')
    data = app.data('{ getAlbum(albumId: "al", title: "Blue") { tracks { items { id album { title } } } } }')
    assert data["getAlbum"]["tracks"]["items"] == [{"id": "t1", "album": {"title": "Blue"}}]


def test_project_fixture_gen2_has_one_on_the_child_and_composite_references():
    app = make_app(FIXTURES / "gen2-conventions.mis.json")
    app.data('mutation { createShopper(input: {id: "sh", email: "a@example.com"}) { id } }')
    app.data('mutation { createBasket(input: {id: "ba", shopperId: "sh"}) { id } }')
    assert app.data('{ getShopper(id: "sh") { basket { id shopper { email } } } }')["getShopper"] == {
        "basket": {"id": "ba", "shopper": {"email": "a@example.com"}}}
    app.data('mutation { createStore(input: {region: "eu", storeId: "s1"}) { storeId } }')
    for shelf_id, region in (("x", "eu"), ("y", "us")):
        app.data(f'mutation {{ createStoreShelf(input: {{id: "{shelf_id}", aisle: 1, storeRegion: "{region}", '
                 f'storeStoreId: "s1"}}) {{ id }} }}')
    data = app.data('{ getStore(region: "eu", storeId: "s1") { shelves { items { id store { region } } } } }')
    assert data["getStore"]["shelves"]["items"] == [{"id": "x", "store": {"region": "eu"}}]


def fixture_app(name: str) -> LocalApp:
    return make_app(SHARED_FIXTURES / name)


@pytest.mark.shared_fixtures
def test_gen1_has_one_with_foreign_keys_on_the_parent():
    app = fixture_app("gen1-cpk-hasone-hasmany-manytomany.mis.json")
    app.data('mutation { createTeam1(input: {teamId: "t1", name: "Core"}) { teamId } }')
    app.data('mutation { createProject1(input: {projectId: "p1", name: "Apollo", project1TeamTeamId: "t1", '
             'project1TeamName: "Core"}) { projectId } }')
    data = app.data('{ getProject1(projectId: "p1", name: "Apollo") { team { teamId name } } }')
    assert data["getProject1"]["team"] == {"teamId": "t1", "name": "Core"}
    app.data('mutation { createProject1(input: {projectId: "p2", name: "Gemini", project1TeamTeamId: "t1", '
             'project1TeamName: "Other"}) { projectId } }')
    assert app.data('{ getProject1(projectId: "p2", name: "Gemini") { team { teamId } } }')["getProject1"]["team"] is None


@pytest.mark.shared_fixtures
def test_gen1_has_many_through_a_model_typed_associated_with_and_composite_keys():
    app = fixture_app("gen1-cpk-hasone-hasmany-manytomany.mis.json")
    app.data('mutation { createPost3(input: {postId: "p", title: "T"}) { postId } }')
    for comment_id, title in (("c1", "T"), ("c2", "other"), ("c3", "T")):
        app.data(f'mutation {{ createComment3(input: {{commentId: "{comment_id}", content: "x", postId: "p", '
                 f'postTitle: "{title}"}}) {{ commentId }} }}')
    data = app.data('{ getPost3(postId: "p", title: "T") { comments { items { commentId post { title } } } } }')
    assert [c["commentId"] for c in data["getPost3"]["comments"]["items"]] == ["c1", "c3"]
    assert {c["post"]["title"] for c in data["getPost3"]["comments"]["items"]} == {"T"}
    app.data('mutation { createPost1(input: {postId: "q", title: "Q"}) { postId } }')
    app.data('mutation { createComment1(input: {commentId: "k", content: "y", post1CommentsPostId: "q", '
             'post1CommentsTitle: "Q"}) { commentId } }')
    data = app.data('{ getPost1(postId: "q", title: "Q") { comments { items { commentId } } } }')
    assert data["getPost1"]["comments"]["items"] == [{"commentId": "k"}]


@pytest.mark.shared_fixtures
def test_gen2_has_one_with_the_key_on_the_child():
    app = fixture_app("gen2-cart-customer.amplify_outputs.json")
    app.data('mutation { createCustomer(input: {id: "cu", name: "Ana"}) { id } }')
    app.data('mutation { createCart(input: {id: "ca", customerId: "cu"}) { id } }')
    data = app.data('{ getCustomer(id: "cu") { activeCart { id customer { name } } } }')
    assert data["getCustomer"]["activeCart"] == {"id": "ca", "customer": {"name": "Ana"}}


@pytest.mark.shared_fixtures
def test_gen2_references_with_a_three_part_key():
    app = fixture_app("gen2-references-cpk-hasmany.mis.json")
    app.data('mutation { createPrimary(input: {tenantId: "t", instanceId: "i", recordId: "r"}) { tenantId } }')
    for related_id, record in (("a", "r"), ("b", "x")):
        app.data(f'mutation {{ createRelated(input: {{id: "{related_id}", primaryTenantId: "t", '
                 f'primaryInstanceId: "i", primaryRecordId: "{record}"}}) {{ id }} }}')
    data = app.data('{ getPrimary(tenantId: "t", instanceId: "i", recordId: "r") { related { items { id } } } }')
    assert data["getPrimary"]["related"]["items"] == [{"id": "a"}]
    listed = app.data('{ listPrimaries(tenantId: "t", instanceIdRecordId: {beginsWith: {instanceId: "i"}}) '
                      '{ items { recordId } } }')
    assert listed["listPrimaries"]["items"] == [{"recordId": "r"}]


@pytest.mark.shared_fixtures
def test_gen2_index_query_with_an_enum_partition_key_and_custom_operations():
    app = fixture_app("gen2-amplify-data-modeled.mis.json")
    for title, status in (("b", "yes"), ("a", "yes"), ("c", "no")):
        app.data(f'mutation {{ createEnumAsIndexPartitionKey(input: {{title: "{title}", status: {status}}}) {{ id }} }}')
    data = app.data('{ enumIndexFieldTest1(status: yes) { items { title } } }')
    assert [i["title"] for i in data["enumIndexFieldTest1"]["items"]] == ["a", "b"]
    # Without a canned result a custom query echoes its arguments: echoString returns its one String argument.
    assert app.data('{ echoString(inputString: "hi") }') == {"echoString": "hi"}
