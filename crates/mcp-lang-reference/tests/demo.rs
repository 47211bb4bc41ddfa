//! `mcp-lang demo` tells the whole story and checks what it shows: it ends
//! without an error, and the story has the SEP's name and a localized title.

#[tokio::test(flavor = "current_thread")]
async fn the_demo_tells_the_story_to_the_end() {
    let mut out = Vec::new();
    mcp_lang_reference::demo::run(&mut out).await.unwrap();
    let story = String::from_utf8(out).unwrap();
    assert!(story.contains("SEP-2792"), "{story}");
    assert!(story.contains("Météo actuelle"), "{story}");
}
