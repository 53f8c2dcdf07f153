# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# Tests of views/semantic (included from tests/CMakeLists.txt): the semantic views' models and widgets
# on a real sample with a model of our own (tests/data/semantic), and the headless rendering of each
# view (parallax --semantic MODEL PATH --render semantic-NAME).
parallax_test(tst_semantic_views views/tst_semantic_views.cpp parallax_views)
parallax_test(tst_render_semantic app/tst_render_semantic.cpp parallax_datasource Qt6::Gui)
target_compile_definitions(tst_render_semantic PRIVATE PARALLAX_GUI="$<TARGET_FILE:parallax>")
add_dependencies(tst_render_semantic parallax)
