// The creator's words in its six languages. Style and colour names come
// from the configuration (their labels from the catalogue where it has
// them); everything the page itself says is here.
const en = {
  title: 'Create your avatar', loading: 'Building your avatar…', ready: 'Avatar updated',
  body: 'Body', face: 'Face', skin: 'Skin', hair: 'Hair', eyes: 'Eyes', outfit: 'Outfit', glasses: 'Glasses', start: 'Start',
  bodyType: 'Body type', masculine: 'Masculine', feminine: 'Feminine',
  'body.height': 'Height', 'body.build': 'Build', 'body.age': 'Age', 'body.muscle': 'Muscle', 'body.weight': 'Weight', 'body.proportions': 'Proportions',
  feature: 'Feature', head: 'Head', nose: 'Nose', mouth: 'Mouth', ears: 'Ears', chin: 'Chin', cheeks: 'Cheeks',
  facePreset: 'Face presets', tone: 'Skin tone', style: 'Style', color: 'Colour', anyColor: 'Any colour',
  top: 'Top', bottom: 'Bottom', footwear: 'Footwear', none: 'None',
  undo: 'Undo', redo: 'Redo', shuffle: 'Shuffle', reset: 'Reset', done: 'Done',
  portrait: 'Portrait', fullbody: 'Full body', animations: 'Animations', idle: 'Idle',
  templates: 'Start from a ready avatar', saving: 'Saving…', saved: 'Saved', error: 'Something went wrong; try again.',
  viewer: 'Your avatar in 3D; drag to turn, scroll or pinch to zoom', controls: 'Avatar settings', preset: 'Preset',
};
const de = {
  title: 'Erstelle deinen Avatar', loading: 'Dein Avatar wird gebaut…', ready: 'Avatar aktualisiert',
  body: 'Körper', face: 'Gesicht', skin: 'Haut', hair: 'Haare', eyes: 'Augen', outfit: 'Kleidung', glasses: 'Brille', start: 'Start',
  bodyType: 'Körpertyp', masculine: 'Männlich', feminine: 'Weiblich',
  'body.height': 'Größe', 'body.build': 'Statur', 'body.age': 'Alter', 'body.muscle': 'Muskeln', 'body.weight': 'Gewicht', 'body.proportions': 'Proportionen',
  feature: 'Merkmal', head: 'Kopf', nose: 'Nase', mouth: 'Mund', ears: 'Ohren', chin: 'Kinn', cheeks: 'Wangen',
  facePreset: 'Gesichtsvorlagen', tone: 'Hautton', style: 'Stil', color: 'Farbe', anyColor: 'Beliebige Farbe',
  top: 'Oberteil', bottom: 'Hose/Rock', footwear: 'Schuhe', none: 'Keine',
  undo: 'Rückgängig', redo: 'Wiederholen', shuffle: 'Zufall', reset: 'Zurücksetzen', done: 'Fertig',
  portrait: 'Porträt', fullbody: 'Ganzkörper', animations: 'Animationen', idle: 'Ruhe',
  templates: 'Mit einem fertigen Avatar beginnen', saving: 'Wird gespeichert…', saved: 'Gespeichert', error: 'Etwas ist schiefgegangen; bitte erneut versuchen.',
  viewer: 'Dein Avatar in 3D; ziehen zum Drehen, scrollen oder zwei Finger zum Zoomen', controls: 'Avatar-Einstellungen', preset: 'Vorlage',
};
const fr = {
  title: 'Crée ton avatar', loading: 'Construction de ton avatar…', ready: 'Avatar mis à jour',
  body: 'Corps', face: 'Visage', skin: 'Peau', hair: 'Cheveux', eyes: 'Yeux', outfit: 'Tenue', glasses: 'Lunettes', start: 'Départ',
  bodyType: 'Type de corps', masculine: 'Masculin', feminine: 'Féminin',
  'body.height': 'Taille', 'body.build': 'Carrure', 'body.age': 'Âge', 'body.muscle': 'Muscles', 'body.weight': 'Poids', 'body.proportions': 'Proportions',
  feature: 'Trait', head: 'Tête', nose: 'Nez', mouth: 'Bouche', ears: 'Oreilles', chin: 'Menton', cheeks: 'Joues',
  facePreset: 'Visages prédéfinis', tone: 'Teint', style: 'Style', color: 'Couleur', anyColor: 'Toute couleur',
  top: 'Haut', bottom: 'Bas', footwear: 'Chaussures', none: 'Aucune',
  undo: 'Annuler', redo: 'Rétablir', shuffle: 'Hasard', reset: 'Réinitialiser', done: 'Terminé',
  portrait: 'Portrait', fullbody: 'En pied', animations: 'Animations', idle: 'Repos',
  templates: 'Partir d’un avatar prêt', saving: 'Enregistrement…', saved: 'Enregistré', error: 'Une erreur est survenue ; réessaie.',
  viewer: 'Ton avatar en 3D ; glisse pour tourner, molette ou pincement pour zoomer', controls: 'Réglages de l’avatar', preset: 'Modèle',
};
const es = {
  title: 'Crea tu avatar', loading: 'Construyendo tu avatar…', ready: 'Avatar actualizado',
  body: 'Cuerpo', face: 'Cara', skin: 'Piel', hair: 'Pelo', eyes: 'Ojos', outfit: 'Ropa', glasses: 'Gafas', start: 'Inicio',
  bodyType: 'Tipo de cuerpo', masculine: 'Masculino', feminine: 'Femenino',
  'body.height': 'Altura', 'body.build': 'Complexión', 'body.age': 'Edad', 'body.muscle': 'Músculo', 'body.weight': 'Peso', 'body.proportions': 'Proporciones',
  feature: 'Rasgo', head: 'Cabeza', nose: 'Nariz', mouth: 'Boca', ears: 'Orejas', chin: 'Barbilla', cheeks: 'Mejillas',
  facePreset: 'Caras predefinidas', tone: 'Tono de piel', style: 'Estilo', color: 'Color', anyColor: 'Cualquier color',
  top: 'Parte de arriba', bottom: 'Parte de abajo', footwear: 'Calzado', none: 'Ninguna',
  undo: 'Deshacer', redo: 'Rehacer', shuffle: 'Aleatorio', reset: 'Restablecer', done: 'Listo',
  portrait: 'Retrato', fullbody: 'Cuerpo entero', animations: 'Animaciones', idle: 'Reposo',
  templates: 'Empezar con un avatar listo', saving: 'Guardando…', saved: 'Guardado', error: 'Algo salió mal; inténtalo de nuevo.',
  viewer: 'Tu avatar en 3D; arrastra para girar, rueda o pellizco para acercar', controls: 'Ajustes del avatar', preset: 'Plantilla',
};
const ptBR = {
  title: 'Crie seu avatar', loading: 'Construindo seu avatar…', ready: 'Avatar atualizado',
  body: 'Corpo', face: 'Rosto', skin: 'Pele', hair: 'Cabelo', eyes: 'Olhos', outfit: 'Roupa', glasses: 'Óculos', start: 'Início',
  bodyType: 'Tipo de corpo', masculine: 'Masculino', feminine: 'Feminino',
  'body.height': 'Altura', 'body.build': 'Físico', 'body.age': 'Idade', 'body.muscle': 'Músculos', 'body.weight': 'Peso', 'body.proportions': 'Proporções',
  feature: 'Traço', head: 'Cabeça', nose: 'Nariz', mouth: 'Boca', ears: 'Orelhas', chin: 'Queixo', cheeks: 'Bochechas',
  facePreset: 'Rostos prontos', tone: 'Tom de pele', style: 'Estilo', color: 'Cor', anyColor: 'Qualquer cor',
  top: 'Parte de cima', bottom: 'Parte de baixo', footwear: 'Calçados', none: 'Nenhum',
  undo: 'Desfazer', redo: 'Refazer', shuffle: 'Aleatório', reset: 'Redefinir', done: 'Concluir',
  portrait: 'Retrato', fullbody: 'Corpo inteiro', animations: 'Animações', idle: 'Parado',
  templates: 'Começar de um avatar pronto', saving: 'Salvando…', saved: 'Salvo', error: 'Algo deu errado; tente de novo.',
  viewer: 'Seu avatar em 3D; arraste para girar, role ou pince para aproximar', controls: 'Ajustes do avatar', preset: 'Modelo',
};
const ja = {
  title: 'アバターを作成', loading: 'アバターを作成中…', ready: 'アバターを更新しました',
  body: '体', face: '顔', skin: '肌', hair: '髪', eyes: '目', outfit: '服', glasses: 'メガネ', start: 'スタート',
  bodyType: '体型', masculine: '男性的', feminine: '女性的',
  'body.height': '身長', 'body.build': '体格', 'body.age': '年齢', 'body.muscle': '筋肉', 'body.weight': '体重', 'body.proportions': 'プロポーション',
  feature: 'パーツ', head: '頭', nose: '鼻', mouth: '口', ears: '耳', chin: 'あご', cheeks: '頬',
  facePreset: '顔のプリセット', tone: '肌の色', style: 'スタイル', color: '色', anyColor: '好きな色',
  top: 'トップス', bottom: 'ボトムス', footwear: '靴', none: 'なし',
  undo: '元に戻す', redo: 'やり直す', shuffle: 'ランダム', reset: 'リセット', done: '完了',
  portrait: '顔アップ', fullbody: '全身', animations: 'アニメーション', idle: '待機',
  templates: '完成済みのアバターから始める', saving: '保存中…', saved: '保存しました', error: 'エラーが発生しました。もう一度お試しください。',
  viewer: '3Dのアバター。ドラッグで回転、スクロールかピンチでズーム', controls: 'アバターの設定', preset: 'プリセット',
};

export const dictionaries = { en, de, fr, es, 'pt-BR': ptBR, ja };

// pick is the UI language: the boot's (from /{lang}/avatar), else the
// browser's first one the creator speaks, else English.
export function pick(bootLang, navigatorLangs) {
  const known = Object.keys(dictionaries);
  const match = (tag) => {
    if (!tag) return null;
    if (known.includes(tag)) return tag;
    const base = tag.split('-')[0].toLowerCase();
    if (base === 'pt') return 'pt-BR';
    return known.find((k) => k.toLowerCase() === base) || null;
  };
  if (match(bootLang)) return match(bootLang);
  for (const l of navigatorLangs || []) if (match(l)) return match(l);
  return 'en';
}

// translator gives t(key), falling back to English, then to the key.
export function translator(lang) {
  const d = dictionaries[lang] || en;
  return (key) => d[key] ?? en[key] ?? key;
}
