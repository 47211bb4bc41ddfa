# Eagráin oifigiúla na ndoiciméad a sheolann `get_official_document`.

udhr-article-1 = Saolaítear gach duine den chine daonna saor agus comhionann i ndínit agus i gcearta. Tá bua an réasúin agus an choinsiasa acu agus ba cheart dóibh gníomhú i dtreo a chéile i spiorad an bhráithreachais.
