# Official editions of the documents served by `get_official_document`.
# These are content, chosen by the tool's explicit `language` argument
# (SEP-2792 "Explicit language selection takes precedence"), not display text.

udhr-article-1 = All human beings are born free and equal in dignity and rights. They are endowed with reason and conscience and should act towards one another in a spirit of brotherhood.
