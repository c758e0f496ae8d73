export { OcrLane, type OcrLimits } from './ocr-lane.ts';
export { convertPdf, type PdfConversion, type PdfConvertOptions, type PdfStrategy } from './pdf.ts';
export { type PdfText, readPdfText } from './pdf-text.ts';
