# mcp-lang リファレンスサーバーの表示用文字列: 日本語

server = 言語設定リファレンスサーバー

tool-weather_current = 現在の天気
    .annotation-title = 天気の確認（読み取り専用）
tool-get_official_document = 公式文書
    .annotation-title = 公式文書の取得
tool-send_confirmation = メールによる確認
    .annotation-title = メールアドレスの入力依頼
tool-prepare_report = レポートの作成
    .annotation-title = 時間のかかるレポート作成

prompt-plan_trip = 旅行の計画
    .arg-city = 都市
    .arg-days = 日数

resource-languages = 対応言語
template-official_document = 公式文書の版

elicit-email-message = メールアドレスを入力してください。
elicit-email-title = メールアドレス
elicit-email-description = 確認用のアドレス

progress-collect = データを収集しています（{ $step }/{ $total }）…
progress-analyse = データを分析しています（{ $step }/{ $total }）…
progress-write = レポートを作成しています（{ $step }/{ $total }）…
progress-done = レポートが完成しました。

error-unknown-tool = 不明なツールです: { $name }
error-missing-argument = 引数がありません: { $name }
error-unknown-city = 不明な都市です: { $city }
error-unknown-document = 公式文書「{ $id }」は存在しません。
error-document-language = 公式文書「{ $id }」には { $language } 版がありません。
error-unknown-prompt = 不明なプロンプトです: { $name }
error-unknown-resource = { $uri } にリソースはありません。
error-email-declined = メールアドレスが入力されませんでした。
error-elicitation-unsupported = このクライアントはユーザーに入力を求めることができません。
error-tool-always-fails = ツール { $name } は意図的に常に失敗します。
